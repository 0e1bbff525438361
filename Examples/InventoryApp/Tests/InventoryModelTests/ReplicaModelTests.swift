import Foundation
import Inventory
import InventoryModel
import StockroomStore
import Testing

/// Two stalls' models, each over its own replica file, syncing with one hub as a screen's
/// buttons would make them: the waiting changes shown before a sync, the true conflict the hub
/// finds shown after it, resolved on one stall, and gone from both after their next sync. Each
/// runs against the shop's file and against a real `stockroom serve` on it (``HubKind``).
@MainActor @Suite(.timeLimit(.minutes(2))) struct ReplicaModelTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "replica-model-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A stall: its replica file, opened as a pool, and its model, observing.
    struct Stall {
        let pool: StorePool
        let model: InventoryModel
        let observing: Task<Void, Never>
    }

    /// A new stall at `name`.sqlite syncing with `shop`, its model observing and loaded.
    func stall(_ name: String, of shop: Shop) async throws -> Stall {
        let location = DatabaseLocation.file(folder.appending(path: "\(name).sqlite").path)
        let pool = try await StorePool.open(location)
        let model = InventoryModel(pool: pool, location: location, hub: shop.hub)
        let observing = Task { await model.observe() }
        await ModelChanges.waitUntil(model) { model.isLoaded }
        return Stall(pool: pool, model: model, observing: observing)
    }

    /// Stops the stalls' observations and closes every pool.
    func finish(_ stalls: [Stall], _ shop: Shop?) {
        for stall in stalls {
            stall.observing.cancel()
            stall.pool.close()
        }
        shop?.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Syncs `stall` as its button does, and returns what the sync did.
    func sync(_ stall: Stall) async throws -> SyncReport {
        await stall.model.syncButtonTapped()
        #expect(stall.model.failure == nil)
        return try #require(stall.model.lastSync)
    }

    /// Both stalls attached to `shop`, each holding `item`.
    func twoStalls(of shop: Shop, holding item: Item) async throws -> (Stall, Stall) {
        try await shop.pool.write { store in try store.items.insert(item) }
        let ann = try await stall("ann", of: shop), bob = try await stall("bob", of: shop)
        for stall in [ann, bob] {
            #expect(stall.model.syncState == nil, "not a replica before its first sync")
            #expect(InventoryPresentation.syncLine(for: stall.model.syncState, isSyncing: stall.model.isSyncing) == nil)
            #expect(try await sync(stall).pulled == 1)
            #expect(stall.model.syncState?.pending == 0)
            #expect(stall.model.syncState?.lastSync != nil)
        }
        return (ann, bob)
    }

    @Test(arguments: HubKind.allCases) func bothStallsSellTheLastUnitAndTheOversoldConflictIsResolvedByKeepingTheHubsValue(_ kind: HubKind) async throws {
        let shop = try await Shop(kind, in: folder)
        let cable = Item(name: "Cable", color: .yellow, status: .inStock(quantity: 1))
        let (ann, bob) = try await twoStalls(of: shop, holding: cable)
        defer { finish([ann, bob], shop) }

        for stall in [ann, bob] {
            _ = try await stall.pool.write { store in try store.items.adjust(id: cable.id, by: -1) }
        }
        for stall in [ann, bob] {
            // The sale's commit wakes the model's observation, which reads the waiting change.
            await ModelChanges.waitUntil(stall.model) { stall.model.syncState?.pending == 1 }
            let state = try #require(stall.model.syncState)
            #expect(InventoryPresentation.syncLine(for: state, isSyncing: false)
                == "1 change waiting, no open conflicts; last sync \(try #require(state.lastSync))")
        }

        #expect(try await sync(ann).conflicts == 0, "Ann's sale reached the hub first and took the last unit")
        let report = try await sync(bob)
        #expect(report.pushed == 1 && report.conflicts == 1)
        let bobs = try #require(bob.model.conflicts.first)
        #expect(bob.model.conflicts.count == 1 && bob.model.syncState?.conflicts == 1)
        let bobID = try #require(bob.model.syncState?.replica)
        #expect(InventoryPresentation.row(for: bobs) == InventoryPresentation.ConflictRow(
            title: "Cable", reason: "oversold, 1 missing",
            explanation: "adjusted by -1 at the replica while the hub had fewer: now out of stock, 1 missing",
            hub: "Cable  yellow  Out of stock  -", wanted: "Cable  yellow  Out of stock  -",
            origin: "replica \(Presentation.shortID(bobID)), changed there at \(bobs.conflict.madeAt)"))
        #expect(bobs.conflict.missing == 1)
        #expect(InventoryPresentation.syncLine(for: bob.model.syncState, isSyncing: false)?
            .hasPrefix("nothing waiting, 1 open conflict; last sync ") == true)

        // Ann's next sync brings her the conflict too: every replica sees it.
        _ = try await sync(ann)
        #expect(ann.model.conflicts.map(\.id) == [bobs.id])

        await bob.model.resolve(bobs, by: .keepHub)
        #expect(bob.model.failure == nil)
        #expect(bob.model.conflicts.isEmpty)
        #expect(bob.model.syncState?.pending == 1, "the resolution waits to be pushed")
        #expect(try await sync(bob).pushed == 1)
        #expect(try await shop.pool.read { store in try store.drafts.count() } == 0, "closed on the hub")
        _ = try await sync(ann)
        for stall in [ann, bob] {
            #expect(stall.model.conflicts.isEmpty)
            #expect(stall.model.syncState?.conflicts == 0 && stall.model.syncState?.pending == 0)
            await ModelChanges.waitUntil(stall.model) { stall.model.inventory.map(\.status) == [.outOfStock(isOnBackOrder: false)] }
        }
    }

    @Test(arguments: HubKind.allCases) func bothStallsRenameTheSameItemAndOneEditsTheConflictThenSaves(_ kind: HubKind) async throws {
        let shop = try await Shop(kind, in: folder)
        let keyboard = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 5))
        let (ann, bob) = try await twoStalls(of: shop, holding: keyboard)
        defer { finish([ann, bob], shop) }
        _ = try await ann.pool.write { store in try store.items.update(id: keyboard.id, with: ItemEdit(name: "Keyboard, UK")) }
        _ = try await bob.pool.write { store in try store.items.update(id: keyboard.id, with: ItemEdit(name: "Keyboard, US")) }
        _ = try await sync(ann)
        #expect(try await sync(bob).conflicts == 1)
        let conflict = try #require(bob.model.conflicts.first)
        let row = InventoryPresentation.row(for: conflict)
        #expect(row.reason == "overtaken")
        #expect(row.hub == "Keyboard, UK  blue  In stock: 5  -")
        #expect(row.wanted == "Keyboard, US  blue  In stock: 5  -")

        await bob.model.edit(conflict: conflict)
        let draft = try #require(bob.model.draft)
        #expect(InventoryPresentation.title(for: draft.draft) == "Resolve a conflict: overtaken")
        await bob.model.edit(ItemEdit(name: "Keyboard, UK and US"))
        await bob.model.saveButtonTapped()
        #expect(bob.model.failure == nil && bob.model.draft == nil)
        #expect(bob.model.conflicts.isEmpty)

        _ = try await sync(bob)
        _ = try await sync(ann)
        #expect(try await shop.pool.read { store in try store.items.item(id: keyboard.id) }.name == "Keyboard, UK and US")
        for stall in [ann, bob] {
            #expect(stall.model.conflicts.isEmpty && stall.model.syncState?.conflicts == 0)
            await ModelChanges.waitUntil(stall.model) { stall.model.inventory.map(\.name) == ["Keyboard, UK and US"] }
        }
    }

    /// Ann resolves the conflict Bob's change caused, once her sync brought it, by taking
    /// Bob's value: the replica's is the one that wanted it, whoever resolves.
    @Test(arguments: HubKind.allCases) func theOtherStallTakesTheReplicasValue(_ kind: HubKind) async throws {
        let shop = try await Shop(kind, in: folder)
        let keyboard = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 5))
        let (ann, bob) = try await twoStalls(of: shop, holding: keyboard)
        defer { finish([ann, bob], shop) }
        _ = try await ann.pool.write { store in try store.items.update(id: keyboard.id, with: ItemEdit(color: .set(.green))) }
        _ = try await bob.pool.write { store in try store.items.update(id: keyboard.id, with: ItemEdit(color: .set(.red))) }
        _ = try await sync(ann)
        _ = try await sync(bob)
        _ = try await sync(ann)
        let conflict = try #require(ann.model.conflicts.first)
        #expect(conflict.conflict.wanted?.color == .red && conflict.conflict.shown.color == .green)
        // Someone began editing the draft in another front; taking the replica's value still takes it.
        _ = try await ann.pool.write { store in try store.drafts.edit(id: conflict.id, with: ItemEdit(name: "Keybaord")) }

        await ann.model.resolve(conflict, by: .takeReplica)
        #expect(ann.model.failure == nil && ann.model.conflicts.isEmpty)
        _ = try await sync(ann)
        _ = try await sync(bob)
        let held = try await shop.pool.read { store in try store.items.item(id: keyboard.id) }
        #expect(held.color == .red && held.name == "Keyboard")
        for stall in [ann, bob] {
            #expect(stall.model.conflicts.isEmpty && stall.model.syncState?.conflicts == 0)
            await ModelChanges.waitUntil(stall.model) { stall.model.inventory.map(\.color) == [.red] }
        }
    }

    /// A hub that cannot be reached (a drive not plugged in, a server down) fails the sync in
    /// words, and every change waits for the next one.
    @Test(arguments: HubKind.allCases) func aHubThatCannotBeReachedKeepsTheChangesAndSaysSo(_ kind: HubKind) async throws {
        let shop = try await Shop(kind, in: folder)
        let peg = Item(name: "Peg", status: .inStock(quantity: 10))
        try await shop.pool.write { store in try store.items.insert(peg) }
        let ann = try await stall("ann", of: shop)
        defer { finish([ann], shop) }
        _ = try await sync(ann)
        _ = try await ann.pool.write { store in try store.items.adjust(id: peg.id, by: -2) }
        try shop.unplug()
        await ann.model.syncButtonTapped()
        #expect(ann.model.failure?.contains("cannot be reached") == true, "\(ann.model.failure ?? "no failure")")
        #expect(ann.model.syncState?.pending == 1 && !ann.model.isSyncing)
        try await shop.plugIn()
        #expect(try await sync(ann).pushed == 1)
        #expect(try await shop.pool.read { store in try store.items.item(id: peg.id) }.status == .inStock(quantity: 8))
    }

    @Test func theSyncLineReadsAsTheStateIs() {
        defer { finish([], nil) }
        let replica = UUID()
        let state = SyncState(hub: "/srv/shop.sqlite", replica: replica, pending: 3, lastSync: nil, conflicts: 2)
        #expect(InventoryPresentation.syncLine(for: state, isSyncing: false) == "3 changes waiting, 2 open conflicts; never synced")
        #expect(InventoryPresentation.syncLine(for: state, isSyncing: true) == "3 changes waiting, 2 open conflicts; syncing now")
        #expect(InventoryPresentation.syncLine(for: nil, isSyncing: true) == "syncing now", "a first sync shows while it runs")
        #expect(InventoryPresentation.syncLine(for: nil, isSyncing: false) == nil)
    }
}
