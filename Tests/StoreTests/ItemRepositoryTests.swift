import Foundation
import Inventory
import SQLiteCore
import StockroomStore
import StockroomTestSupport
import Testing

@Suite struct ItemRepositoryTests {
    @Test(arguments: Engine.allCases)
    func everyGeneratedItemRoundTripsThroughTheTaggedColumns(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let items = Generated.items(count: 300, seed: 42)
        try test.store.items.insert(contentsOf: items)
        for item in items {
            #expect(try test.store.items.item(id: item.id) == item)
        }
        #expect(Set(try test.store.items.list()) == Set(items))
    }

    @Test(arguments: Engine.allCases)
    func statusIsStoredAsATagPlusOneColumnPerAssociatedValue(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let inStock = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        let backOrder = Item(name: "Phone", color: .green, status: .outOfStock(isOnBackOrder: true))
        let out = Item(name: "Headphones", color: nil, status: .outOfStock(isOnBackOrder: false))
        try test.store.items.insert(contentsOf: [inStock, backOrder, out])
        let rows = try test.shell("SELECT name, coalesce(color, 'NULL'), status, coalesce(CAST(quantity AS TEXT), 'NULL'), coalesce(CAST(is_on_back_order AS TEXT), 'NULL') FROM items ORDER BY name;")
        #expect(rows.lines == [
            "Headphones|NULL|out_of_stock|NULL|0",
            "Keyboard|blue|in_stock|100|NULL",
            "Phone|green|out_of_stock|NULL|1",
        ])
    }

    @Test(arguments: Engine.allCases)
    func listsAreOrderedByNameThenIdAndFiltered(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let items = Generated.items(count: 120, seed: 7)
        try test.store.items.insert(contentsOf: items)
        let all = try test.store.items.list()
        // SQLite's BINARY collation compares UTF-8 bytes; ids break ties.
        let expected = items.sorted { a, b in
            a.name == b.name ? a.id.lowercasedString < b.id.lowercasedString : Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8))
        }
        #expect(all == expected)
        #expect(try test.store.items.list(matching: ItemQuery(status: .inStock)).allSatisfy(\.status.isInStock))
        #expect(try test.store.items.list(matching: ItemQuery(status: .outOfStock)).count == items.filter { !$0.status.isInStock }.count)
        #expect(try test.store.items.list(matching: ItemQuery(status: .onBackOrder)) == all.filter { $0.status == .outOfStock(isOnBackOrder: true) })
        #expect(try test.store.items.list(matching: ItemQuery(color: .red)) == all.filter { $0.color == .red })
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "KEYB")) == all.filter { $0.name.lowercased().contains("keyb") })
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "%")) == [])
        #expect(try test.store.items.list(matching: ItemQuery(namePrefix: "Key")) == all.filter { $0.name.hasPrefix("Key") })
        #expect(try test.store.items.list(matching: ItemQuery(limit: 10, offset: 5)) == Array(all[5..<15]))
    }

    @Test(arguments: Engine.allCases)
    func updatesApplyOnlyTheGivenFields(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let keyboard = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        try test.store.items.insert(keyboard)
        let updated = try test.store.items.update(id: keyboard.id, with: ItemEdit(color: .remove, status: .outOfStock(isOnBackOrder: true)))
        #expect(updated == Item(id: keyboard.id, name: "Keyboard", color: nil, status: .outOfStock(isOnBackOrder: true)))
        #expect(try test.store.items.item(id: keyboard.id) == updated)
        #expect(throws: InventoryError.blankName) { try test.store.items.update(id: keyboard.id, with: ItemEdit(name: " ")) }
        #expect(try test.store.items.item(id: keyboard.id) == updated)
    }

    @Test(arguments: Engine.allCases)
    func invalidItemsAreRefusedBeforeTheyReachSQLite(_ engine: Engine) throws {
        let test = try TestStore(engine)
        #expect(throws: InventoryError.blankName) { try test.store.items.insert(Item(name: "\u{2060}")) }
        #expect(throws: InventoryError.invalidQuantity(0)) { try test.store.items.insert(Item(name: "X", status: .inStock(quantity: 0))) }
        // All or nothing: one bad item in a batch leaves no item behind.
        #expect(throws: InventoryError.self) {
            try test.store.items.insert(contentsOf: [Item(name: "Good"), Item(name: "")])
        }
        #expect(try test.store.items.count() == 0)
    }

    @Test(arguments: Engine.allCases)
    func idsResolveFromUniquePrefixesInAnyCase(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let a = Item(id: UUID(uuidString: "0193a1f2-aaaa-7000-8000-000000000001")!, name: "A")
        let b = Item(id: UUID(uuidString: "0193a1f2-bbbb-7000-8000-000000000002")!, name: "B")
        try test.store.items.insert(contentsOf: [a, b])
        #expect(try test.store.items.resolveID("0193A1F2-AAAA") == a.id)
        #expect(try test.store.items.resolveID(b.id.uuidString) == b.id)
        #expect(throws: StoreError.ambiguousID(.item, "0193", matches: [a.id.lowercasedString, b.id.lowercasedString])) {
            try test.store.items.resolveID("0193")
        }
        #expect(throws: StoreError.malformedID(.item, "019")) { try test.store.items.resolveID("019") }
        #expect(throws: StoreError.malformedID(.item, "zzzz")) { try test.store.items.resolveID("zzzz") }
        #expect(throws: StoreError.notFound(.item, "ffff")) { try test.store.items.resolveID("ffff") }
    }

    /// Issue 37: the short form lines print (`Presentation.shortID`: first 4 … last 8) is
    /// taken where an id is, on both engines; two ids with the same ends are refused as
    /// ambiguous, never resolved to one of them.
    @Test(arguments: Engine.allCases)
    func idsResolveFromTheShortFormLinesPrint(_ engine: Engine) throws {
        let test = try TestStore(engine)
        // Made in the same millisecond: the first 12 hex digits are the same.
        let a = Item(id: UUID(uuidString: "0193a1f2-5c3e-7000-8000-0000aaaa0001")!, name: "A")
        let b = Item(id: UUID(uuidString: "0193a1f2-5c3e-7000-8000-0000bbbb0002")!, name: "B")
        let c = Item(id: UUID(uuidString: "0193a1f2-5c3e-7000-8000-0001bbbb0002")!, name: "C")
        try test.store.items.insert(contentsOf: [a, b, c])
        #expect(Presentation.shortID(a.id) == "0193\u{2026}aaaa0001")
        #expect(try test.store.items.resolveID(Presentation.shortID(a.id)) == a.id)
        #expect(try test.store.items.resolveID("0193...AAAA0001") == a.id)  // typed without "…"
        #expect(try test.store.items.resolveID("\u{2026}aaaa0001") == a.id)   // the end alone
        #expect(try test.store.items.resolveID("0193\u{2026}0000bbbb0002") == b.id)  // a longer end tells b from c
        #expect(throws: StoreError.ambiguousID(.item, Presentation.shortID(b.id), matches: [b.id.lowercasedString, c.id.lowercasedString])) {
            try test.store.items.resolveID(Presentation.shortID(b.id))
        }
        #expect(throws: StoreError.notFound(.item, "0193...ffff0001")) { try test.store.items.resolveID("0193...ffff0001") }
        #expect(throws: StoreError.notFound(.item, "0194...aaaa0001")) { try test.store.items.resolveID("0194...aaaa0001") }
        for malformed in ["0193...aaa", "0193...", "zz...aaaa0001", "0193...aa%a", "0193\u{2026}aaaa\u{2026}0001"] {
            #expect(throws: StoreError.malformedID(.item, malformed)) { try test.store.items.resolveID(malformed) }
        }
    }

    /// What an event line shows beside the id of an item whose naming event it did not read.
    @Test(arguments: Engine.allCases)
    func anItemsNameAtAVersionIsTheLastOneGivenUpToIt(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let lamp = Item(name: "Lamp")
        try test.store.items.insert(lamp)
        try test.store.items.update(id: lamp.id, with: ItemEdit(status: .inStock(quantity: 3)))
        try test.store.items.update(id: lamp.id, with: ItemEdit(name: "Desk lamp"))
        try test.store.items.delete(id: lamp.id)
        let names = try (1...4).map { try test.store.items.name(id: lamp.id, atVersion: $0) }
        #expect(names == ["Lamp", "Lamp", "Desk lamp", "Desk lamp"])
        #expect(try test.store.items.name(id: UUID(), atVersion: 1) == nil)
    }

    @Test(arguments: Engine.allCases)
    func rowsThatDoNotFormAValidCaseAreErrorsNamingTheRow(_ engine: Engine) throws {
        let test = try TestStore(engine)
        // Only a hand edit with CHECK constraints switched off can write such rows.
        let bad: [(id: String, columns: String, reason: String)] = [
            ("00000000-0000-7000-8000-000000000001", "'in_stock', NULL, NULL", "status 'in_stock' with quantity NULL"),
            ("00000000-0000-7000-8000-000000000002", "'in_stock', 0, NULL", "quantity 0"),
            ("00000000-0000-7000-8000-000000000003", "'in_stock', 5, 1", "is_on_back_order 1"),
            ("00000000-0000-7000-8000-000000000004", "'out_of_stock', 3, 0", "status 'out_of_stock' with quantity 3"),
            ("00000000-0000-7000-8000-000000000005", "'out_of_stock', NULL, 2", "is_on_back_order 2"),
            ("00000000-0000-7000-8000-000000000006", "'sold', NULL, NULL", "status 'sold'"),
        ]
        for row in bad {
            let result = try test.shellIgnoringChecks("""
                INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
                VALUES ('\(row.id)', 'Bad', NULL, \(row.columns), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
                """)
            #expect(result.status == 0, "\(result)")
            let id = UUID(uuidString: row.id)!
            let error = #expect(throws: StoreError.self) { try test.store.items.item(id: id) }
            guard case .undecodableRow(let table, let rowID, let reason)? = error else {
                Issue.record("expected undecodableRow, got \(String(describing: error))"); continue
            }
            #expect(table == "items")
            #expect(rowID == row.id)
            #expect(reason.contains(row.reason), "\(reason)")
            try test.shell("DELETE FROM items WHERE id = '\(row.id)';")
        }
    }
}
