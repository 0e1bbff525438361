import Foundation
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// `withEventContext` (migration 0011): what a writer declares about its write reaches the
/// event the database's triggers append, on both engines; the declaration never outlives the
/// write, whether the write succeeds or throws.
@Suite struct EventContextTests {
    static let replica = UUID(uuidString: "01937f4e-aaaa-7000-8000-0000000000a1")!
    static let intents = (1...3).map { UUID(uuidString: "01937f4e-bbbb-7000-8000-00000000000\($0)")! }

    func contextRows(_ test: TestStore) throws -> String {
        let result = try test.shell("SELECT count(*) FROM item_event_context;")
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: Engine.allCases)
    func anOriginAndIntentReachEveryKindOfEvent(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let store = test.store
        let item = Item(name: "Lamp", status: .inStock(quantity: 2))
        try store.write {
            try store.withEventContext(itemID: item.id, origin: Self.replica, intentID: Self.intents[0]) {
                try store.items.insert(item)
            }
        }
        #expect(try contextRows(test) == "0")
        // No transaction of the caller's: the call opens its own.
        try store.withEventContext(itemID: item.id, origin: Self.replica, intentID: Self.intents[1]) {
            _ = try store.items.update(id: item.id, with: ItemEdit(name: "Desk lamp"))
        }
        // A local change between them: no origin.
        _ = try store.items.adjust(id: item.id, by: 1)
        try store.write {
            try store.withEventContext(itemID: item.id, origin: Self.replica, intentID: Self.intents[2]) {
                try store.items.delete(id: item.id)
            }
        }
        #expect(try contextRows(test) == "0")

        let history = try store.items.history(id: item.id)
        #expect(history.map(\.event.case) == [.added, .changed, .changed, .deleted])
        #expect(history.map(\.origin) == [Self.replica, Self.replica, nil, Self.replica])
        #expect(history.map(\.intentID) == [Self.intents[0], Self.intents[1], nil, Self.intents[2]])
        #expect(history.map(\.adjustedBy) == [nil, nil, 1, nil])

        // The same facts through the events in commit order, and their JSON.
        let events = try store.items.events(after: nil, limit: 10)
        #expect(events.map(\.recorded) == history)
        let json = JSONPresentation.object(for: events[1])
        #expect(json.hasSuffix(",\"origin\":\"\(Self.replica.lowercasedString)\",\"intentId\":\"\(Self.intents[1].lowercasedString)\"}"), "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONPresentation.object(for: history[3]).utf8)) as? [String: Any])
        #expect(object["origin"] as? String == Self.replica.lowercasedString && object["intentId"] as? String == Self.intents[2].lowercasedString)
        #expect(object["adjustedBy"] == nil)
    }

    @Test(arguments: Engine.allCases)
    func aDeclarationWhoseWriteThrowsIsRolledBackWithIt(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let store = test.store
        let item = Item(name: "Phone", status: .inStock(quantity: 1))
        try store.items.insert(item)
        try store.write {
            #expect(throws: InventoryError.notEnoughInStock(available: 1, requested: 5)) {
                try store.withEventContext(itemID: item.id, origin: Self.replica, intentID: Self.intents[0]) {
                    _ = try store.items.adjust(id: item.id, by: -5)
                }
            }
            // The same transaction goes on, and its next write to the item declares nothing.
            _ = try store.items.update(id: item.id, with: ItemEdit(name: "Old phone"))
        }
        #expect(try contextRows(test) == "0")
        let last = try #require(try store.items.history(id: item.id).last)
        #expect(last.version == 2 && last.origin == nil && last.intentID == nil && last.adjustedBy == nil)
    }

    /// An adjustment declared on an addition is not one: the triggers copy adjusted_by into
    /// 'changed' events only, and the schema refuses what no event could hold.
    @Test(arguments: Engine.allCases)
    func theSchemaKeepsTheDetailsRules(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let store = test.store
        let item = Item(name: "Cable", status: .inStock(quantity: 1))
        try store.withEventContext(itemID: item.id, adjustedBy: 1) { try store.items.insert(item) }
        #expect(try store.items.history(id: item.id).first?.adjustedBy == nil)

        let id = item.id.lowercasedString, origin = Self.replica.lowercasedString
        for refused in [
            "INSERT INTO item_event_context (item_id, adjusted_by) VALUES ('\(id)', 0);",
            "INSERT INTO item_event_context (item_id, origin) VALUES ('\(id)', '\(origin)');",
            "INSERT INTO item_event_context (item_id, origin, intent_id) VALUES ('\(id)', '\(origin)', 'not-a-uuid');",
        ] {
            let result = try test.shell(refused)
            #expect(result.status != 0 && result.stderr.contains("constraint"), "\(engine): \(refused) \(result)")
        }
        #expect(try contextRows(test) == "0")
    }
}

extension EventContextTests {
    /// A context committed by a writer that forgot to delete it would be copied into the next
    /// change of its item, whoever makes it: `check` reports it, on both engines.
    @Test(arguments: Engine.allCases)
    func checkReportsAContextLeftCommitted(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Mug", status: .inStock(quantity: 1))
        try test.store.items.insert(item)
        #expect(try DatabaseKeptHistoryTests.check(test).isEmpty)
        let left = try test.shell("INSERT INTO item_event_context (item_id, adjusted_by) VALUES ('\(item.id.lowercasedString)', -1);")
        #expect(left.status == 0, "\(left)")
        let problems = try DatabaseKeptHistoryTests.check(test)
        #expect(problems.map(\.kind) == [.history], "\(problems)")
        #expect(problems.first?.message.contains("item_event_context holds 1 row(s)") == true, "\(problems)")
    }
}
