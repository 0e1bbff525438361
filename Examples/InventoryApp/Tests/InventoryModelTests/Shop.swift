import Foundation
import InventoryModel
import StockroomHTTP
import StockroomStore
import Testing

/// How the stalls reach the shop's hub in a test.
enum HubKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// The shop's SQLite file, opened by each sync (`StorePool.sync(hub:)`).
    case file
    /// A real `stockroom serve` on that file, over HTTP with its token (`StorePool.sync(through:)`).
    case server

    var testDescription: String { rawValue }
}

/// The shop: its database, opened directly to set up items and to see what the hub holds, and
/// the ``ReplicaHub`` the stalls' models sync with.
@MainActor final class Shop {
    /// The folder it keeps its files in.
    let folder: URL
    /// The shop's database file.
    let path: String
    /// That file, opened here.
    let pool: StorePool
    /// Where the stalls sync.
    let hub: ReplicaHub
    /// The server, for a ``HubKind/server`` hub.
    private var server: ShopServer?

    /// A new shop in `folder`, reached as `kind` says.
    init(_ kind: HubKind, in folder: URL) async throws {
        self.folder = folder
        path = folder.appending(path: "shop.sqlite").path
        pool = try await StorePool.open(.file(path))
        switch kind {
        case .file:
            hub = .direct(.file(path))
            server = nil
        case .server:
            let server = try await ShopServer(database: path, folder: folder)
            hub = .server(try HTTPHubTransport(url: server.url, token: server.token))
            self.server = server
        }
    }

    /// Makes the hub unreachable, as a drive taken out or a server down: the file moved away,
    /// the server stopped.
    func unplug() throws {
        if let server {
            server.stop()
        } else {
            try FileManager.default.moveItem(atPath: path, toPath: path + ".unplugged")
        }
    }

    /// Makes the hub reachable again where it was: the file back, the server started again on
    /// its port with its token.
    func plugIn() async throws {
        if let server {
            self.server = try await ShopServer(database: path, folder: folder, port: server.port, token: server.token)
        } else {
            try FileManager.default.moveItem(atPath: path + ".unplugged", toPath: path)
        }
    }

    /// Stops the server, and closes the shop's database.
    func close() {
        server?.stop()
        pool.close()
    }
}
