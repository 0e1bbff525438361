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

    // MARK: Conflicts' drafts (Draft.resolving, migration 0012)

    /// An oversold keyboard: the hub had 2, the stall sold 3.
    static func oversold(itemID: UUID = UUID.version7(), id: UUID = UUID.version7()) -> Conflict {
        let hub = Item(id: itemID, name: "Keyboard", color: .blue, status: .outOfStock(isOnBackOrder: false),
                       location: ItemLocation(stored: "Shelf B3"))
        return Conflict(id: id, itemID: itemID, hubItem: hub, replicaCopy: hub, origin: UUID.version7(),
                        madeAt: "2026-11-28T10:00:00.000Z", reason: .oversold(adjustment: -3, missing: 1))
    }

    @Test(arguments: Engine.allCases)
    func aConflictOpensOnceUnderItsIDAsItsResolvingDraft(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let conflict = Self.oversold()
        #expect(try test.store.write { try test.store.drafts.open(conflict) })
        // A push retried after a lost answer opens it again: nothing changes.
        #expect(try !test.store.write { try test.store.drafts.open(conflict) })
        let expected = IdentifiedDraft(id: conflict.id, draft: .resolution(of: conflict))
        #expect(try test.store.drafts.conflictDraft(id: conflict.id) == expected)
        #expect(try test.store.drafts.draft(id: conflict.id) == expected)
        #expect(try test.store.drafts.openConflicts() == [expected])
        #expect(try test.store.drafts.conflictDraft(id: conflict.id)?.conflict?.hubItem == conflict.hubItem)
        let rows = try test.shell("""
            SELECT kind, item_id, name, status, conflict_reason, conflict_adjustment, conflict_missing, conflict_hub_holds_item,
                   shown_name, shown_status, shown_is_on_back_order, shown_location, coalesce(wanted_name, 'NULL')
            FROM drafts;
            """)
        #expect(rows.lines == ["resolving|\(conflict.itemID.lowercasedString)|Keyboard|out_of_stock|oversold|-3|1|1|Keyboard|out_of_stock|0|Shelf B3|Keyboard"])
    }

    @Test(arguments: Engine.allCases)
    func twoConflictsAboutOneItemAreTwoDraftsWhileANewItemIsDraftedOnce(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let itemID = UUID.version7()
        let first = Self.oversold(itemID: itemID), second = Self.oversold(itemID: itemID)
        _ = try test.store.write {
            try test.store.drafts.open(first)
            try test.store.drafts.open(second)
        }
        #expect(Set(try test.store.drafts.openConflicts().map(\.id)) == [first.id, second.id])
        // A new item's draft may share the id of an item in conflict, but not another new item's draft.
        let adding = Draft.adding(Item(id: itemID, name: "Mouse"))
        try test.store.drafts.create(adding)
        let error = #expect(throws: (any Error).self) { try test.store.drafts.create(.duplicating(Item(id: itemID, name: "Copy"), sourceItemID: itemID)) }
        switch engine {
        case .sqlite: #expect((error as? SQLiteError)?.primaryCode == 19, "\(String(describing: error))")
        case .postgres: #expect((error as? PostgresError)?.constraintName == "drafts_new_item_once", "\(String(describing: error))")
        }
        #expect(try test.store.drafts.count() == 3)
    }

    @Test(arguments: Engine.allCases)
    func savingAConflictOnTheHubTakesTheDraftsItemAndCancellingKeepsTheHubs(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let hub = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 4))
        try test.store.items.insert(hub)
        func overtaken(_ wanted: String) -> Conflict {
            var copy = hub
            copy.name = "Keyboard (old)"
            var replica = copy
            replica.name = wanted
            return Conflict(id: UUID.version7(), itemID: hub.id, hubItem: hub, replicaCopy: copy, origin: UUID.version7(),
                            madeAt: "2026-11-28T10:00:00.000Z", reason: .overtaken(ItemChanges(from: copy, to: replica)!))
        }
        let kept = overtaken("Keyboard, UK"), taken = overtaken("Keyboard, US")
        try test.store.write {
            try test.store.drafts.open(kept)
            try test.store.drafts.open(taken)
        }
        try test.store.drafts.cancel(id: kept.id)
        #expect(try test.store.items.item(id: hub.id).name == "Keyboard", "cancelling keeps the hub's value")
        let saved = try test.store.drafts.save(id: taken.id)
        #expect(saved.name == "Keyboard, US")
        #expect(try test.store.items.item(id: hub.id) == saved, "saving takes the draft's item")
        #expect(try test.store.drafts.all().isEmpty, "both conflicts are closed")
        let last = try test.store.items.history(id: hub.id).last
        #expect(last?.version == 2, "one event for the one resolution that changed something")
    }

    @Test(arguments: Engine.allCases)
    func editingAConflictsDraftKeepsItsConflict(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let conflict = Self.oversold()
        _ = try test.store.write { try test.store.drafts.open(conflict) }
        let edited = try test.store.drafts.edit(id: conflict.id, with: ItemEdit(name: "Recounted", status: .inStock(quantity: 4)))
        #expect(try test.store.drafts.draft(id: conflict.id) == edited)
        #expect(edited.draft.item.name == "Recounted" && edited.draft.item.id == conflict.itemID)
        #expect(edited.draft.openConflict == OpenConflict(conflict))
    }

    @Test(arguments: Engine.allCases)
    func removingAConflictDeletesOnlyItsDraft(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let conflict = Self.oversold()
        let adding = try test.store.drafts.startAdding(ItemEdit(name: "Keep"))
        _ = try test.store.write { try test.store.drafts.open(conflict) }
        #expect(try !test.store.drafts.removeConflict(id: adding.id))
        #expect(try test.store.drafts.conflictDraft(id: adding.id) == nil)
        #expect(try test.store.write { try test.store.drafts.removeConflict(id: conflict.id) })
        #expect(try !test.store.drafts.removeConflict(id: conflict.id))
        #expect(try test.store.drafts.all() == [adding])
        #expect(try test.store.drafts.openConflicts().isEmpty)
    }

    @Test(arguments: Engine.allCases)
    func aResolvingRowWithoutItsConflictIsAnErrorNamingTheRow(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Mouse"))
        #expect(try test.shellIgnoringChecks("UPDATE drafts SET kind = 'resolving';").status == 0)
        let error = #expect(throws: StoreError.self) { try test.store.drafts.draft(id: entry.id) }
        guard case .undecodableRow("drafts", entry.id.lowercasedString, let reason)? = error else {
            Issue.record("unexpected \(String(describing: error))"); return
        }
        #expect(reason.contains("kind 'resolving' with source_item_id NULL and no conflict"), "\(reason)")
    }

    @Test(arguments: Engine.allCases)
    func aConflictWrittenByHandIsReadBackThroughTheCodec(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let second = "01937f4e-1111-7000-8000-00000000000b"
        let accepted = try test.shell(ConflictRows.insert() + "\n" + ConflictRows.insert(ConflictRows.changedBeforeDelete.merging(["id": "'\(second)'"]) { $1 }))
        #expect(accepted.status == 0 && accepted.stderr.isEmpty, "\(accepted)")
        let itemID = UUID(uuidString: ConflictRows.itemID)!
        let shown = Item(id: itemID, name: "Keyboard", color: .blue, status: .outOfStock(isOnBackOrder: false),
                         location: ItemLocation(stored: "Shelf B3"))
        let entry = try test.store.drafts.draft(id: UUID(uuidString: ConflictRows.draftID)!)
        #expect(entry.draft == Draft.resolving(Item(id: itemID, name: "Keyboard", color: .blue, status: .outOfStock(isOnBackOrder: false)),
                                          conflict: OpenConflict(shown: shown, hubHoldsItem: true, wanted: shown,
                                                                 origin: UUID(uuidString: ConflictRows.origin)!, madeAt: ConflictRows.madeAt,
                                                                 reason: .oversold, adjustment: -3, missing: 1)))
        let delete = try #require(try test.store.drafts.conflictDraft(id: UUID(uuidString: second)!)?.draft.openConflict)
        #expect(delete.reason == .changedBeforeDelete && delete.wanted == nil && delete.adjustment == nil && delete.missing == nil)
    }

    @Test(arguments: Engine.allCases)
    func theChecksRefuseEveryMalformedConflictWrittenByHand(_ engine: Engine) throws {
        let test = try TestStore(engine)
        for (rule, changes) in ConflictRows.malformed {
            let result = try test.shell(ConflictRows.insert(changes))
            #expect(result.status != 0 || !result.stderr.isEmpty, "\(engine): \(rule) was accepted: \(result)")
            #expect(result.stderr.contains("constraint") || result.stderr.contains("violates"), "\(engine): \(rule): \(result)")
        }
        #expect(try test.shell("SELECT count(*) FROM drafts;").lines == ["0"])
    }
}
