import Foundation
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// What a pull makes of the replica's own pushed changes that the hub judged otherwise.
@Suite struct SyncPullTests {
    /// A resolution that brings back an item the hub deleted writes it at once on the replica,
    /// under the resolution's id. When someone resolved the conflict first, the hub brings
    /// nothing back (a `resolved_meanwhile` conflict instead) and writes no history at all: the
    /// pull must still take the item away, or the replica keeps an item no one else holds
    /// (found by SyncPropertyTests, seed 4, on both hubs).
    @Test(arguments: Engine.allCases)
    func aRestoreTheHubRefusedIsUndoneByThePull(engine: Engine) throws {
        let hubStore = try TestStore(engine)
        let hub = hubStore.location
        let stall = hubStore.directory.path("stall.sqlite"), van = hubStore.directory.path("van.sqlite")
        func sync(_ path: String) throws { _ = try ReplicaSync.run(path: path, hub: .database(hub), busyTimeoutMilliseconds: 5_000) }

        let hammer = Item(name: "Hammer", status: .inStock(quantity: 3))
        try hubStore.store.items.insert(hammer)
        try sync(stall)
        try sync(van)
        // The stall renames the hammer while the hub deletes it: a deleted_before_change
        // conflict, which both replicas pull as a draft.
        let stallStore = try InventoryStore(path: stall), vanStore = try InventoryStore(path: van)
        try stallStore.items.update(id: hammer.id, with: ItemEdit(name: "Claw hammer"))
        try hubStore.store.items.delete(id: hammer.id)
        try sync(stall)
        try sync(van)
        let conflict = try #require(try vanStore.drafts.openConflicts().first)
        // The van keeps the hub's (nothing) first; the stall then brings the hammer back.
        try vanStore.drafts.cancel(id: conflict.id)
        try sync(van)
        try stallStore.drafts.save(id: conflict.id)
        #expect(try stallStore.items.count() == 1)
        try sync(stall)

        #expect(try hubStore.store.items.count() == 0)
        #expect(try stallStore.items.everyItem() == [], "the stall kept an item the hub refused to bring back")
        #expect(try hubStore.store.drafts.openConflicts().map { $0.conflict?.reason.case } == [.resolvedMeanwhile])
    }
}
