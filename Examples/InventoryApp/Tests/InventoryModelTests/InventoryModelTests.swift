import DraftFlow
import Foundation
import Inventory
import InventoryModel
import Observation
import StockroomStore
import Testing

/// The model driven as a screen would drive it, with no screen (seed 003): every change
/// arrives through the store's observation, including one made by another process.
@MainActor @Suite(.timeLimit(.minutes(2))) struct InventoryModelTests {
    let folder: URL
    let path: String
    let pool: StorePool
    let model: InventoryModel
    let observing: Task<Void, Never>

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "inventory-model-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appending(path: "inventory.sqlite").path
        pool = try await StorePool.open(.file(path))
        let model = InventoryModel(pool: pool, location: .file(path))
        self.model = model
        observing = Task { await model.observe() }
    }

    /// Stops observing; the pool closes its connections.
    func finish() {
        observing.cancel()
        pool.close()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func addingEditingAndSavingADraftBringsTheItemIntoTheList() async throws {
        defer { finish() }
        await model.addButtonTapped()
        let draft = try #require(model.draft)
        #expect(InventoryPresentation.title(for: draft.draft) == "Add new item")
        await model.edit(ItemEdit(name: "Keyboard", color: .set(.blue), status: .inStock(quantity: 100)))
        #expect(model.draft?.draft.item.name == "Keyboard")
        await model.saveButtonTapped()
        #expect(model.draft == nil)
        #expect(model.failure == nil)
        try await waitUntil { model.inventory.map(\.name) == ["Keyboard"] }
        #expect(InventoryPresentation.row(for: model.inventory[0]) ==
            InventoryPresentation.Row(title: "Keyboard", subtitle: "In stock: 100", swatch: .blue, isMuted: false))
    }

    @Test func aConflictsDraftIsTitledWithWhyItWasOpened() {
        defer { finish() }
        let hub = Item(name: "Keyboard", color: .blue, status: .outOfStock(isOnBackOrder: false))
        let conflict = Conflict(id: UUID(), itemID: hub.id, hubItem: hub, replicaCopy: hub, origin: UUID(),
                                madeAt: "2026-11-28T10:00:00.000Z", reason: .oversold(adjustment: -3, missing: 1))
        #expect(InventoryPresentation.title(for: .resolution(of: conflict)) == "Resolve a conflict: oversold, 1 missing")
    }

    @Test func aDuplicateCancelledAddsNothing() async throws {
        defer { finish() }
        try await pool.write { store in try store.items.insert(Item(name: "Phone", color: .green, status: .outOfStock(isOnBackOrder: true))) }
        try await waitUntil { model.inventory.count == 1 }
        let phone = model.inventory[0]
        #expect(InventoryPresentation.row(for: phone).isMuted)
        await model.duplicate(item: phone)
        let draft = try #require(model.draft)
        #expect(InventoryPresentation.title(for: draft.draft) == "Duplicate item")
        #expect(draft.draft.item.status == phone.status)
        await model.cancelButtonTapped()
        #expect(model.draft == nil)
        #expect(try await pool.read { store in try store.drafts.count() } == 0)
        #expect(model.inventory.map(\.name) == ["Phone"])
    }

    @Test func theWizardAsksAndSaves() async throws {
        defer { finish() }
        await model.addButtonTapped()
        for line in ["Charger", "yellow", "", "", "20"] { await model.answer(line) }
        #expect(model.wizard?.step.kind == .review)
        await model.answer("s")
        try await waitUntil { model.inventory.first?.status == .inStock(quantity: 20) }
        #expect(model.inventory.first?.color == .yellow)
    }

    /// Another process (the sqlite3 shell) writes the file; the model hears the commit.
    @Test func anItemAddedByAnotherProcessArrivesInTheModel() async throws {
        defer { finish() }
        // Observing first: the item must arrive through a commit the model hears, not its first read.
        try await waitUntil { model.isLoaded && model.failure == nil }
        #expect(model.inventory.isEmpty)
        let id = UUID().uuidString.lowercased()
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path, """
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('\(id)', 'Headphones', 'green', 'out_of_stock', NULL, 0, '2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z');
            """]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        try await waitUntil { model.inventory.map(\.name) == ["Headphones"] }
        #expect(model.inventory.first?.status == .outOfStock(isOnBackOrder: false))
    }

    /// Waits until `condition` holds (see ``ModelChanges``).
    func waitUntil(_ condition: @escaping @MainActor () -> Bool) async throws {
        await ModelChanges.waitUntil(model, condition)
    }
}
