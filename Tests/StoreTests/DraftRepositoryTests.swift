import Foundation
import Inventory
import SQLiteCore
import StockroomStore
import StockroomTestSupport
import Testing

@Suite struct DraftRepositoryTests {
    @Test func everyGeneratedDraftRoundTripsThroughTheTaggedColumns() throws {
        let test = try TestStore()
        let drafts = Generated.drafts(count: 200, seed: 99)
        let stored = try drafts.map { try test.store.drafts.create($0) }
        for entry in stored {
            #expect(try test.store.drafts.draft(id: entry.id) == entry)
        }
        #expect(Set(try test.store.drafts.all()) == Set(stored))
    }

    @Test func draftKindIsATagAndOnlyDuplicatesNameASource() throws {
        let test = try TestStore()
        let source = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        try test.store.items.insert(source)
        try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        try test.store.drafts.startDuplicating(itemID: source.id)
        let rows = try Processes.sqlite3(test.path, "SELECT kind, ifnull(source_item_id, 'NULL'), name FROM drafts ORDER BY kind;")
        #expect(rows.lines == ["adding|NULL|Mouse", "duplicating|\(source.id.lowercasedString)|Keyboard"])
    }

    @Test func savingInsertsTheItemAndDeletesTheDraftTogether() throws {
        let test = try TestStore()
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse", color: .set(.black), status: .inStock(quantity: 3)))
        let item = try test.store.drafts.save(id: entry.id)
        #expect(item == entry.draft.item)
        #expect(try test.store.items.item(id: item.id) == item)
        #expect(throws: StoreError.notFound(.draft, entry.id.lowercasedString)) { try test.store.drafts.draft(id: entry.id) }
    }

    @Test func aBlankDraftIsNotSavedAndIsKept() throws {
        let test = try TestStore()
        let entry = try test.store.drafts.startAdding()
        #expect(throws: InventoryError.blankName) { try test.store.drafts.save(id: entry.id) }
        #expect(try test.store.drafts.draft(id: entry.id) == entry)
        #expect(try test.store.items.count() == 0)
    }

    @Test func aFailedSaveLeavesBothTablesAsTheyWere() throws {
        let test = try TestStore()
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        // An item already holding the draft's future id makes the insert fail mid-save.
        try test.store.items.insert(Item(id: entry.draft.item.id, name: "Squatter"))
        #expect(throws: SQLiteError.self) { try test.store.drafts.save(id: entry.id) }
        #expect(try test.store.drafts.draft(id: entry.id) == entry)
        #expect(try test.store.items.count() == 1)
    }

    @Test func aDuplicateStillSavesAfterItsSourceIsDeleted() throws {
        let test = try TestStore()
        let source = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        try test.store.items.insert(source)
        let entry = try test.store.drafts.startDuplicating(itemID: source.id)
        try test.store.items.delete(id: source.id)
        let saved = try test.store.drafts.save(id: entry.id)
        #expect(saved.name == "Keyboard")
        #expect(saved.id != source.id)
        #expect(try test.store.items.items() == [saved])
    }

    @Test func cancellingRemovesOnlyTheDraft() throws {
        let test = try TestStore()
        let keep = try test.store.drafts.startAdding(ItemEdit(name: "Keep"))
        let drop = try test.store.drafts.startAdding(ItemEdit(name: "Drop"))
        try test.store.drafts.cancel(id: drop.id)
        #expect(try test.store.drafts.all() == [keep])
        #expect(try test.store.items.count() == 0)
        #expect(throws: StoreError.notFound(.draft, drop.id.lowercasedString)) { try test.store.drafts.cancel(id: drop.id) }
    }

    @Test func aDraftRowWithAMismatchedKindIsAnErrorNamingTheRow() throws {
        let test = try TestStore()
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        try Processes.sqlite3(test.path, "PRAGMA ignore_check_constraints = ON; UPDATE drafts SET kind = 'duplicating';")
        let error = #expect(throws: StoreError.self) { try test.store.drafts.draft(id: entry.id) }
        guard case .undecodableRow("drafts", entry.id.lowercasedString, let reason)? = error else {
            Issue.record("unexpected \(String(describing: error))"); return
        }
        #expect(reason.contains("kind 'duplicating' with source_item_id NULL"))
    }
}
