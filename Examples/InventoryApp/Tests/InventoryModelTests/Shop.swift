import Foundation
import InventoryModel
import StockroomStore
import Testing

/// How the stalls reach the shop's hub in a test.
enum HubKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// The shop's SQLite file, opened by each sync (`StorePool.sync(hub:)`).
    case file

    var testDescription: String { rawValue }
}

/// The shop: its database, opened directly to set up items and to see what the hub holds, and
/// the ``ReplicaHub`` the stalls' models sync with.
struct Shop {
    /// The shop's database file.
    let path: String
    /// That file, opened here.
    let pool: StorePool
    /// Where the stalls sync.
    let hub: ReplicaHub

    /// A new shop in `folder`, reached as `kind` says.
    init(_ kind: HubKind, in folder: URL) async throws {
        path = folder.appending(path: "shop.sqlite").path
        pool = try await StorePool.open(.file(path))
        switch kind {
        case .file: hub = .direct(.file(path))
        }
    }

    /// Closes the shop's database.
    func close() {
        pool.close()
    }
}
