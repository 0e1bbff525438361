import Foundation
import Inventory
import PostgresCore
import SQLiteCore
import StockroomStore
import StockroomTestSupport
import Testing

@Suite struct DraftRepositoryTests {
    @Test(arguments: Engine.allCases)
    func everyGeneratedDraftRoundTripsThroughTheTaggedColumns(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let drafts = Generated.drafts(count: 200, seed: 99)
        let stored = try drafts.map { try test.store.drafts.create($0) }
        for entry in stored {
            #expect(try test.store.drafts.draft(id: entry.id) == entry)
        }
        #expect(Set(try test.store.drafts.all()) == Set(stored))
    }

    @Test(arguments: Engine.allCases)
    func draftKindIsATagAndOnlyDuplicatesNameASource(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let source = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        try test.store.items.insert(source)
        try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        try test.store.drafts.startDuplicating(itemID: source.id)
        let rows = try test.shell("SELECT kind, coalesce(source_item_id, 'NULL'), name FROM drafts ORDER BY kind;")
        #expect(rows.lines == ["adding|NULL|Mouse", "duplicating|\(source.id.lowercasedString)|Keyboard"])
    }

    @Test(arguments: Engine.allCases)
    func savingInsertsTheItemAndDeletesTheDraftTogether(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse", color: .set(.black), status: .inStock(quantity: 3)))
        let item = try test.store.drafts.save(id: entry.id)
        #expect(item == entry.draft.item)
        #expect(try test.store.items.item(id: item.id) == item)
        #expect(throws: StoreError.notFound(.draft, entry.id.lowercasedString)) { try test.store.drafts.draft(id: entry.id) }
    }

    @Test(arguments: Engine.allCases)
    func aBlankDraftIsNotSavedAndIsKept(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let entry = try test.store.drafts.startAdding()
        #expect(throws: InventoryError.blankName) { try test.store.drafts.save(id: entry.id) }
        #expect(try test.store.drafts.draft(id: entry.id) == entry)
        #expect(try test.store.items.count() == 0)
    }

    @Test(arguments: Engine.allCases)
    func aFailedSaveLeavesBothTablesAsTheyWere(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        // An item already holding the draft's future id makes the insert fail mid-save.
        try test.store.items.insert(Item(id: entry.draft.item.id, name: "Squatter"))
        let error = #expect(throws: (any Error).self) { try test.store.drafts.save(id: entry.id) }
        // The engine's own unique-key refusal.
        switch engine {
        case .sqlite: #expect((error as? SQLiteError)?.primaryCode == 19, "\(String(describing: error))")
        case .postgres: #expect((error as? PostgresError)?.constraintName == "items_pkey", "\(String(describing: error))")
        }
        #expect(try test.store.drafts.draft(id: entry.id) == entry)
        #expect(try test.store.items.count() == 1)
    }

    @Test(arguments: Engine.allCases)
    func aDuplicateStillSavesAfterItsSourceIsDeleted(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let source = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        try test.store.items.insert(source)
        let entry = try test.store.drafts.startDuplicating(itemID: source.id)
        try test.store.items.delete(id: source.id)
        let saved = try test.store.drafts.save(id: entry.id)
        #expect(saved.name == "Keyboard")
        #expect(saved.id != source.id)
        #expect(try test.store.items.list() == [saved])
    }

    @Test(arguments: Engine.allCases)
    func cancellingRemovesOnlyTheDraft(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let keep = try test.store.drafts.startAdding(ItemEdit(name: "Keep"))
        let drop = try test.store.drafts.startAdding(ItemEdit(name: "Drop"))
        try test.store.drafts.cancel(id: drop.id)
        #expect(try test.store.drafts.all() == [keep])
        #expect(try test.store.items.count() == 0)
        #expect(throws: StoreError.notFound(.draft, drop.id.lowercasedString)) { try test.store.drafts.cancel(id: drop.id) }
    }

    @Test(arguments: Engine.allCases)
    func aDraftRowWithAMismatchedKindIsAnErrorNamingTheRow(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        #expect(try test.shellIgnoringChecks("UPDATE drafts SET kind = 'duplicating';").status == 0)
        let error = #expect(throws: StoreError.self) { try test.store.drafts.draft(id: entry.id) }
        guard case .undecodableRow("drafts", entry.id.lowercasedString, let reason)? = error else {
            Issue.record("unexpected \(String(describing: error))"); return
        }
        #expect(reason.contains("kind 'duplicating' with source_item_id NULL"))
    }
}
