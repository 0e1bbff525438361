import Foundation
import StockroomMigrations
import StockroomTestSupport
import Testing

/// Issue 35, migration 0011: an adjustment is recorded as one, by its units, whoever asks for
/// it (`items adjust` here; the HTTP adjustments and the counter take the same path), on both
/// engines, and shows in `items history` and `events`; a quantity set by `items update` or by
/// hand in the engine's shell is not an adjustment; and the context table a writer declares
/// through is empty after every write.
@Suite struct EventDetailsCommandTests {
    /// A database of either engine, with the binary and the engine's own shell run against it.
    struct Target {
        let file = CLIDatabase()
        let server: PostgresScratchSchema?

        init(_ engine: String) throws {
            server = engine == "postgres" ? try PostgresScratchSchema() : nil
        }

        func stockroom(_ arguments: String...) throws -> ProcessResult {
            if let server { return try Processes.stockroom(arguments + ["--db", server.uri]) }
            return try file.stockroom(arguments: arguments)
        }

        func shell(_ sql: String) throws -> ProcessResult {
            try server?.psql(sql) ?? Processes.sqlite3(file.path, sql)
        }

        /// The rows of item_event_context, which must be 0 once any write has returned.
        func contextRows() throws -> String {
            let result = try shell("SELECT count(*) FROM item_event_context;")
            #expect(result.status == 0, "\(result)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    @Test(arguments: ["sqlite", "postgres"])
    func anAdjustmentIsRecordedByItsUnitsAndASetIsNot(_ engine: String) throws {
        let target = try Target(engine)
        let added = try target.stockroom("items", "add", "--name", "Charger", "--quantity", "5")
        try #require(added.status == 0, "\(added)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try target.contextRows() == "0")

        let sold = try target.stockroom("items", "adjust", id, "--by", "-3")
        #expect(sold.status == 0, "\(sold)")
        #expect(try target.contextRows() == "0")
        let delivered = try target.stockroom("items", "adjust", id, "--by", "10")
        #expect(delivered.status == 0, "\(delivered)")
        // A quantity set, by Stockroom and by hand: the same kind of change, no adjustment.
        #expect(try target.stockroom("items", "update", id, "--quantity", "7").status == 0)
        let byHand = try target.shell("UPDATE items SET quantity = 4 WHERE id = '\(id)';")
        #expect(byHand.status == 0, "\(byHand)")
        // A refused adjustment leaves no context behind either.
        let refused = try target.stockroom("items", "adjust", id, "--by", "-9")
        #expect(refused.status != 0, "\(refused)")
        #expect(try target.contextRows() == "0")

        let json = try target.stockroom("items", "history", id, "--format", "json")
        #expect(json.status == 0, "\(json)")
        let events = try Self.objects(json.stdout)
        try #require(events.count == 5, "\(json)")
        #expect(events.map { $0["adjustedBy"] as? Int } == [nil, -3, 10, nil, nil], "\(json)")
        // Absent facts are left out, so an event without them prints as it always did.
        #expect(events.allSatisfy { $0["origin"] == nil && $0["intentId"] == nil }, "\(json)")
        #expect(!events[3].keys.contains("adjustedBy") && !events[4].keys.contains("adjustedBy"), "\(json)")

        let table = try target.stockroom("items", "history", id)
        #expect(table.stdout.contains("Quantity 5 -> 2 (adjusted by -3)"), "\(table)")
        #expect(table.stdout.contains("Quantity 2 -> 12 (adjusted by +10)"), "\(table)")
        #expect(table.stdout.contains("Quantity 12 -> 7\n") && table.stdout.hasSuffix("Quantity 7 -> 4\n"), "\(table)")

        let lines = try target.stockroom("events").stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(lines)")
        #expect(lines[1].hasSuffix(",\"adjustedBy\":-3}") && lines[2].hasSuffix(",\"adjustedBy\":10}"), "\(lines)")
        #expect(!lines[3].contains("adjustedBy") && !lines[4].contains("adjustedBy"), "\(lines)")
        let eventTable = try target.stockroom("events", "--format", "table")
        #expect(eventTable.stdout.contains("Quantity 5 -> 2 (adjusted by -3)\n"), "\(eventTable)")

        // The schema holds the rules for every writer, the shell included.
        let stored = try target.shell("SELECT version, adjusted_by FROM item_events WHERE item_id = '\(id)' ORDER BY version;")
        #expect(stored.stdout.split(separator: "\n") == ["1|", "2|-3", "3|10", "4|", "5|"], "\(stored)")
        #expect(try target.stockroom("check").status == 0)
    }

    /// `copy` moves the history verbatim, how each change was made included: a file to a
    /// server and back.
    @Test func copyKeepsTheDetails() throws {
        let file = CLIDatabase()
        let server = try PostgresScratchSchema()
        let id = try file.stockroom("items", "add", "--name", "Lamp", "--quantity", "4").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try file.stockroom("items", "adjust", id, "--by", "-3").status == 0)
        let original = try file.stockroom("items", "history", id, "--format", "json").stdout
        #expect(original.contains("\"adjustedBy\":-3"), "\(original)")

        let up = try Processes.stockroom(["copy", "--from", file.path, "--to", server.uri])
        #expect(up.status == 0, "\(up)")
        let onServer = try Processes.stockroom(["items", "history", id, "--format", "json", "--db", server.uri])
        #expect(onServer.stdout == original, "\(onServer)")
        let back = CLIDatabase()
        let down = try Processes.stockroom(["copy", "--from", server.uri, "--to", back.path])
        #expect(down.status == 0, "\(down)")
        #expect(try back.stockroom("items", "history", id, "--format", "json").stdout == original)
    }

    /// A file written before 0011 is read as it is (a read never migrates) with no details on
    /// its events, byte-identical; migrated, its history is kept and adjustments record.
    @Test func aFileBefore0011ReadsItsHistoryWithoutDetailsThenMigrates() throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("migrate", "up", "--to", "10").status == 0)
        let id = "01937f4e-5555-7000-8000-000000000011"
        _ = try database.sqlite3("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('\(id)', 'Lamp', NULL, 'in_stock', 2, NULL, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z');
            UPDATE items SET quantity = 3 WHERE id = '\(id)';
            """)
        let before = try database.contents()
        let history = try database.stockroom("items", "history", id, "--format", "json")
        #expect(history.status == 0 && history.stderr.isEmpty, "\(history)")
        let events = try Self.objects(history.stdout)
        #expect(events.count == 2 && events.allSatisfy { $0["adjustedBy"] == nil && $0["origin"] == nil }, "\(history)")
        let lines = try database.stockroom("events")
        #expect(lines.status == 0 && lines.stdout.split(separator: "\n").count == 2, "\(lines)")
        #expect(try database.stockroom("check").status == 0)
        #expect(try database.contents() == before, "reading a v10 file changed it")

        #expect(try database.stockroom("migrate", "up").status == 0)
        #expect(try database.stockroom("items", "adjust", id, "--by", "-1").status == 0)
        let migrated = try Self.objects(try database.stockroom("items", "history", id, "--format", "json").stdout)
        #expect(migrated.map { $0["adjustedBy"] as? Int } == [nil, nil, -1])
        #expect(try database.stockroom("check").status == 0)
    }
}
