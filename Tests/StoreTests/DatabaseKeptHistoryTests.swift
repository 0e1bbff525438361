import Foundation
import Inventory
import PostgresCore
import StockroomMigrations
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The history the database keeps itself (migration 0004), on both engines: whatever writes
/// `items` by hand in the engine's own shell is recorded, a hand-written event that breaks the
/// sequence is refused, and every event has a gapless position in commit order.
@Suite struct DatabaseKeptHistoryTests {
    static let id = "01937f4e-2222-7000-8000-00000000000b"
    static let columns = "id, name, color, status, quantity, is_on_back_order, created_at, updated_at"
    static let old = "'2026-01-01T00:00:00.000Z'"

    /// `check` on either engine.
    static func check(_ test: TestStore) throws -> [DatabaseCheck.Problem] {
        switch test.engine {
        case .sqlite: try DatabaseCheck.run(onFileAt: test.path).problems
        case .postgres: try DatabaseCheck.run(onServer: try Connection(test.schema!.uri)).problems
        }
    }

    @Test(arguments: Engine.allCases)
    func shellWritesAreRecordedByTheDatabaseAndCheckPasses(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let mine = Item(name: "Mug", color: .blue, status: .inStock(quantity: 2))
        try test.store.items.insert(mine)
        let id = try #require(UUID(uuidString: Self.id))
        for sql in [
            "INSERT INTO items (\(Self.columns)) VALUES ('\(Self.id)', 'Lamp', NULL, 'in_stock', 1, NULL, \(Self.old), \(Self.old))",
            "UPDATE items SET name = 'Desk lamp', quantity = 4 WHERE id = '\(Self.id)'",
            // Only updated_at, and a no-op: accepted, nothing recorded.
            "UPDATE items SET updated_at = '2026-02-01T00:00:00.000Z' WHERE id = '\(Self.id)'",
            "UPDATE items SET name = name",
            "UPDATE items SET color = 'red', status = 'out_of_stock', quantity = NULL, is_on_back_order = 1 WHERE name = 'Mug'",
            "DELETE FROM items WHERE id = '\(Self.id)'",
        ] {
            let result = try test.shell(sql)
            #expect(result.status == 0, "\(sql): \(result)")
        }
        let lamp = try test.store.items.history(id: id)
        #expect(lamp.map(\.version) == [1, 2, 3])
        #expect(lamp.map(\.event) == [
            .added(Item(id: id, name: "Lamp", color: nil, status: .inStock(quantity: 1))),
            .changed(try #require(ItemChanges(from: Item(id: id, name: "Lamp", color: nil, status: .inStock(quantity: 1)),
                                              to: Item(id: id, name: "Desk lamp", color: nil, status: .inStock(quantity: 4))))),
            .deleted,
        ])
        #expect(lamp[0].recordedAt == "2026-01-01T00:00:00.000Z", "'added' is dated with the row's updated_at")
        #expect(lamp[1].recordedAt > lamp[0].recordedAt && lamp[2].recordedAt >= lamp[1].recordedAt, "\(lamp)")
        let mug = try test.store.items.history(id: mine.id)
        #expect(mug.map(\.version) == [1, 2])
        #expect(mug.last?.event == .changed(try #require(ItemChanges(from: mine, to: try test.store.items.item(id: mine.id)))))
        #expect(try Self.check(test) == [])
        let positions = try test.store.items.events(after: nil, limit: 100).map(\.position)
        #expect(positions == Array(1...5), "every event, gapless, in commit order")
    }

    @Test(arguments: Engine.allCases)
    func theDatabaseRefusesWhatWouldBreakTheHistory(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let kept = Item(name: "Kept", status: .inStock(quantity: 1))
        let gone = Item(name: "Gone", status: .inStock(quantity: 1))
        try test.store.items.insert(contentsOf: [kept, gone])
        try test.store.items.delete(id: gone.id)
        let now = engine == .sqlite ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            : #"to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#
        let next = "(SELECT max(position) + 1 FROM item_events)"
        let event = "INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, position)"
        let refusals: [(sql: String, message: String)] = [
            ("\(event) VALUES ('\(kept.id.lowercasedString)', 3, 'deleted', \(now), NULL, \(next))", "version must be the item's latest version + 1"),
            ("\(event) VALUES ('\(gone.id.lowercasedString)', 3, 'deleted', \(now), NULL, \(next))", "version must be the item's latest version + 1"),
            ("\(event) VALUES ('\(kept.id.lowercasedString)', 2, 'deleted', '2000-01-01T00:00:00.000Z', NULL, \(next))", "not later than recorded_at"),
            ("\(event) VALUES ('\(kept.id.lowercasedString)', 2, 'deleted', \(now), NULL, \(next) + 1)", "position must be the latest position + 1"),
            ("UPDATE items SET id = '\(Self.id)'", "an item's id never changes"),
            ("INSERT INTO items (\(Self.columns)) VALUES ('\(gone.id.lowercasedString)', 'Again', NULL, 'in_stock', 1, NULL, \(Self.old), \(Self.old))",
             "this id belonged to a deleted item"),
        ]
        let before = try test.store.items.events(after: nil, limit: 100)
        for refusal in refusals {
            let result = try test.shell(refusal.sql)
            #expect(result.status != 0 && result.stderr.contains(refusal.message), "\(refusal.sql): \(result)")
        }
        #expect(try test.store.items.events(after: nil, limit: 100) == before)
        // The same event, following on, is accepted (then rolled back: the item still exists):
        // each refusal above is for its reason.
        let accepted = try test.shell("BEGIN; \(event) VALUES ('\(kept.id.lowercasedString)', 2, 'deleted', \(now), NULL, \(next)); ROLLBACK;")
        #expect(accepted.status == 0 && accepted.stderr.isEmpty, "\(accepted)")
        #expect(try test.shell("DELETE FROM items WHERE id = '\(kept.id.lowercasedString)'").status == 0)
        #expect(try Self.check(test) == [])
    }

    @Test(arguments: Engine.allCases)
    func eventsAfterAPositionPageThroughEveryEventInCommitOrder(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let items = (1...5).map { Item(name: "Item \($0)", status: .inStock(quantity: $0)) }
        try test.store.items.insert(contentsOf: items)
        try test.store.items.update(id: items[0].id, with: ItemEdit(name: "Renamed"))
        try test.store.items.delete(id: items[1].id)
        #expect(try test.shell("UPDATE items SET name = 'By hand' WHERE id = '\(items[2].id.lowercasedString)'").status == 0)

        var pages: [[PositionedItemEvent]] = []
        var last: Int64? = nil
        while true {
            let page = try test.store.items.events(after: last, limit: 3)
            if page.isEmpty { break }
            pages.append(page)
            last = page.last!.position
        }
        let all = pages.flatMap { $0 }
        #expect(pages.map(\.count) == [3, 3, 2])
        #expect(all.map(\.position) == Array(1...8))
        #expect(all.prefix(5).map(\.recorded.event) == items.map { .added($0) })
        #expect(all[5].recorded.itemID == items[0].id && all[5].recorded.version == 2)
        #expect(all[6].recorded.event == .deleted && all[6].recorded.itemID == items[1].id)
        #expect(all[7].recorded.itemID == items[2].id)
        #expect(try test.store.items.events(after: 8, limit: 10) == [])
        #expect(try test.store.items.events(after: 6, limit: 1).map(\.position) == [7])
    }

    /// `check` finds positions that do not run 1, 2, 3, … (the guard set aside by hand): what a
    /// reader resuming after a position relies on.
    @Test(arguments: Engine.allCases)
    func checkFindsAGapInPositions(_ engine: Engine) throws {
        let test = try TestStore(engine)
        try test.store.items.insert(Item(name: "Mug", status: .inStock(quantity: 1)))
        let setAside = engine == .sqlite ? "DROP TRIGGER item_events_follow_on;"
            : "ALTER TABLE item_events DISABLE TRIGGER item_events_follow_on;"
        let written = try test.shell("""
            \(setAside)
            INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, to_status, to_quantity, position)
            VALUES ('\(Self.id)', 1, 'added', \(Self.old), 'Lamp', 'in_stock', 1, 7);
            """)
        #expect(written.status == 0, "\(written)")
        let problems = try Self.check(test)
        #expect(problems.contains(DatabaseCheck.Problem(kind: .history, message: "event positions are not 1 to 2 without gaps (2 distinct, the highest 7)")), "\(problems)")
    }

    /// On a server, appends take turns: a second writer waits for the first one's commit, so a
    /// later position is never committed before an earlier one (a reader resuming after N misses
    /// nothing). Shown without sleeps: the waiting writer gives up at its lock timeout.
    @Test func onAServerAppendsAreSerializedInCommitOrder() throws {
        let test = try TestStore(.postgres)
        let first = try Connection(test.schema!.uri), second = try Connection(test.schema!.uri)
        func insert(_ id: String, on connection: Connection) throws {
            try connection.execute("INSERT INTO items (\(Self.columns)) VALUES ('\(id)', 'x', NULL, 'in_stock', 1, NULL, \(Self.old), \(Self.old))")
        }
        let a = "01937f4e-2222-7000-8000-0000000000a1", b = "01937f4e-2222-7000-8000-0000000000b2"
        try first.execute("BEGIN")
        try insert(a, on: first)
        try second.execute("BEGIN; SET LOCAL lock_timeout = '200ms'")
        let waited = #expect(throws: PostgresError.self) { try insert(b, on: second) }
        #expect(waited?.sqlState == "55P03", "the second writer waits for the first: \(String(describing: waited))")
        try second.execute("ROLLBACK")
        try first.execute("COMMIT")
        try second.execute("BEGIN")
        try insert(b, on: second)
        try second.execute("COMMIT")
        let events = try test.store.items.events(after: nil, limit: 10)
        #expect(events.map(\.position) == [1, 2])
        #expect(events.map(\.recorded.itemID.lowercasedString) == [a, b])
    }
}
