import Foundation
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The library syncs as the CLI does: `StorePool.sync(hub:busyTimeout:)`, `syncStatus()`, and
/// a conflict's draft observed arriving on a replica (``StoreObservation`` over the drafts).
@Suite struct StorePoolSyncTests {
    let directory = TemporaryDirectory()

    @Test func aConflictArrivingWithASyncIsObservedOnTheReplica() async throws {
        let shop = DatabaseLocation.file(directory.path("shop.sqlite"))
        let stallLocation = DatabaseLocation.file(directory.path("stall.sqlite"))
        let hub = try await StorePool.open(shop)
        defer { hub.close() }
        let rope = Item(name: "Rope", status: .inStock(quantity: 3))
        try await hub.write { store in try store.items.insert(rope) }
        let stall = try await StorePool.open(stallLocation)
        defer { stall.close() }
        #expect(try await stall.sync(hub: shop).pulled == 1)
        await #expect(throws: SyncError.notAReplica(path: directory.path("other.sqlite"), attaching: false)) {
            let other = try await StorePool.open(.file(directory.path("other.sqlite")))
            defer { other.close() }
            _ = try await other.syncStatus()
        }

        var conflicts = StoreObservation(location: stallLocation) { store in
            try store.drafts.all().filter { $0.draft.openConflict != nil }.map(\.id)
        }.makeAsyncIterator()
        #expect(try await conflicts.next() == [])

        _ = try await stall.write { store in try store.items.update(id: rope.id, with: ItemEdit(name: "Rope, 10 m")) }
        _ = try await hub.write { store in try store.items.update(id: rope.id, with: ItemEdit(name: "Rope, 20 m")) }
        let report = try await stall.sync()
        #expect(report.pushed == 1 && report.conflicts == 1)
        let arrived = try await conflicts.next()
        #expect(arrived?.count == 1, "the observation woke for the sync's commit and saw the conflict")

        let status = try await stall.syncStatus()
        #expect(status.pending == 0 && status.conflicts == 1 && status.lastSync != nil)
        #expect(status.hub == DurableFile.resolvedPath(directory.path("shop.sqlite")))
    }

    @Test func twoSyncsOfOneReplicaInOneProcessTakeTurns() async throws {
        let shop = DatabaseLocation.file(directory.path("shop.sqlite"))
        let hub = try await StorePool.open(shop)
        hub.close()
        let stall = try await StorePool.open(.file(directory.path("stall.sqlite")), connections: 2)
        defer { stall.close() }
        try await stall.write { store in try store.items.insert(Item(name: "Peg")) }
        _ = try await stall.sync(hub: shop)
        try await stall.write { store in try store.items.insert(Item(name: "Nail")) }
        async let first = stall.sync()
        async let second = stall.sync()
        let reports = try await [first, second]
        #expect(reports.map(\.pushed).reduce(0, +) == 1, "the second waited for the first, which had pushed the one change: \(reports)")
    }
}
