import Foundation
@testable import stockroom
import StockroomMigrations
import StockroomStore
import StockroomTestSupport
import Testing

/// Issue 20: the database keeps the history whoever writes. A session in the real `sqlite3`
/// shell or the real `psql` changes items; `stockroom items history` shows every change and
/// `stockroom check` passes. Databases at schema 0003 get the triggers and positions by
/// migrating. And the import edges that follow from it.
@Suite struct ShellHistoryTests {
    static let id = "01937f4e-3333-7000-8000-00000000000c"
    static let columns = "id, name, color, status, quantity, is_on_back_order, created_at, updated_at"

    /// One shell session: add, rename and restock, a no-op, a colour, then delete; and one
    /// item added by Stockroom then changed by hand.
    static func session(mug: String) -> String {
        """
        INSERT INTO items (\(columns)) VALUES ('\(id)', 'Lamp', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
        UPDATE items SET name = 'Desk lamp', quantity = 4 WHERE id = '\(id)';
        UPDATE items SET updated_at = '2026-02-01T00:00:00.000Z' WHERE id = '\(id)';
        UPDATE items SET color = 'green' WHERE id = '\(id)';
        UPDATE items SET name = 'Big mug' WHERE id = '\(mug)';
        DELETE FROM items WHERE id = '\(id)';
        """
    }

    static func expectHistoryAndCheck(_ run: ([String]) throws -> ProcessResult, mug: String) throws {
        let lamp = try run(["items", "history", id])
        #expect(lamp.status == 0, "\(lamp)")
        let lines = lamp.lines.dropFirst()
        #expect(lines.count == 4, "added, renamed and restocked, coloured, deleted: \(lamp)")
        #expect(lines.first?.contains("Added 'Lamp'") == true, "\(lamp)")
        #expect(lamp.stdout.contains("Renamed 'Lamp' -> 'Desk lamp'") && lamp.stdout.contains("Colour none -> green"), "\(lamp)")
        #expect(lines.last?.contains("Deleted") == true, "\(lamp)")
        let mine = try run(["items", "history", mug])
        #expect(mine.stdout.contains("Renamed 'Mug' -> 'Big mug'"), "\(mine)")
        let check = try run(["check"])
        #expect(check.status == 0, "\(check)")
    }

    @Test func aSQLiteShellSessionIsRecordedAndCheckPasses() throws {
        let database = CLIDatabase()
        let mug = try database.stockroom("items", "add", "--name", "Mug").output
        let shell = try Processes.sqlite3(database.path, Self.session(mug: mug))
        #expect(shell.status == 0, "\(shell)")
        try Self.expectHistoryAndCheck({ try database.stockroom(arguments: $0) }, mug: mug)
        // --if-version still compares with the latest version, now written by the database.
        #expect(try database.stockroom("items", "update", mug, "--quantity", "3", "--if-version", "2").status == 0)
        #expect(try database.stockroom("check").status == 0)
    }

    @Test func aPsqlSessionIsRecordedAndCheckPasses() throws {
        let server = try PostgresScratchSchema()
        func run(_ arguments: [String]) throws -> ProcessResult { try Processes.stockroom(arguments + ["--db", server.uri]) }
        let mug = try run(["items", "add", "--name", "Mug"]).output
        let shell = try server.psql(Self.session(mug: mug))
        #expect(shell.status == 0, "\(shell)")
        try Self.expectHistoryAndCheck(run, mug: mug)
        #expect(try run(["items", "update", mug, "--quantity", "3", "--if-version", "2"]).status == 0)
        #expect(try run(["check"]).status == 0)
    }

    @Test func aHandWrittenEventThatBreaksTheSequenceIsRefusedByTheShell() throws {
        let database = CLIDatabase()
        let mug = try database.stockroom("items", "add", "--name", "Mug").output
        let before = try database.contents()
        let gap = try Processes.sqlite3(database.path, """
            INSERT INTO item_events (item_id, version, kind, recorded_at, position)
            VALUES ('\(mug)', 3, 'deleted', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 2);
            """)
        #expect(gap.status != 0 && gap.stderr.contains("version must be the item's latest version + 1"), "\(gap)")
        #expect(try database.contents() == before)
        #expect(try database.stockroom("check").status == 0)
    }

    /// A database left at schema 0003 (history written by the Stockroom of then), migrated:
    /// its events get positions (by time, an item's own in version order even where a time went
    /// back), the triggers record shell writes from then on, and check passes.
    @Test(arguments: ["sqlite", "postgres"])
    func aDatabaseAtSchema3GetsPositionsAndTriggersByMigrating(_ engine: String) throws {
        let file = CLIDatabase()
        let server = engine == "postgres" ? try PostgresScratchSchema() : nil
        let db = server?.uri ?? file.path
        func shell(_ sql: String) throws -> ProcessResult { try server?.psql(sql) ?? Processes.sqlite3(file.path, sql) }
        #expect(try Processes.stockroom(["migrate", "up", "--to", "3", "--db", db]).status == 0)
        let a = "01937f4e-3333-7000-8000-0000000000a1", b = "01937f4e-3333-7000-8000-0000000000b2"
        let written = try shell("""
            INSERT INTO items (\(Self.columns)) VALUES ('\(a)', 'A2', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-05T00:00:00.000Z');
            INSERT INTO items (\(Self.columns)) VALUES ('\(b)', 'B', NULL, 'in_stock', 1, NULL, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
            INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, to_status, to_quantity)
            VALUES ('\(a)', 1, 'added', '2026-01-03T00:00:00.000Z', 'A', 'in_stock', 1);
            INSERT INTO item_events (item_id, version, kind, recorded_at, from_name, to_name, color_changed)
            VALUES ('\(a)', 2, 'changed', '2026-01-01T00:00:00.000Z', 'A', 'A2', 0);
            INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, to_status, to_quantity)
            VALUES ('\(b)', 1, 'added', '2026-01-02T00:00:00.000Z', 'B', 'in_stock', 1);
            """)
        #expect(written.status == 0, "\(written)")
        #expect(try Processes.stockroom(["migrate", "up", "--db", db]).status == 0)
        let positions = try shell("SELECT item_id, version, position FROM item_events ORDER BY position;")
        #expect(positions.output.split(separator: "\n") == ["\(b)|1|1", "\(a)|1|2", "\(a)|2|3"], "\(positions)")
        #expect(try shell("UPDATE items SET quantity = 2 WHERE id = '\(b)';").status == 0)
        #expect(try shell("SELECT version, kind, position FROM item_events WHERE item_id = '\(b)' ORDER BY version;").output
            .split(separator: "\n") == ["1|added|1", "2|changed|4"])
        let check = try Processes.stockroom(["check", "--db", db])
        #expect(check.status == 0, "\(check)")
    }

    // MARK: Import edges (issue 20, item 5)

    /// `import --dry-run` refuses the id of a deleted item with the real import's line, in every
    /// conflict mode, on both engines.
    @Test(arguments: ["sqlite", "postgres"])
    func aDryRunRefusesTheIDOfADeletedItemAsTheImportDoes(_ engine: String) throws {
        let file = CLIDatabase()
        let server = engine == "postgres" ? try PostgresScratchSchema() : nil
        let db = server?.uri ?? file.path
        let gone = try Processes.stockroom(["items", "add", "--name", "Gone", "--db", db]).output
        #expect(try Processes.stockroom(["items", "delete", gone, "--db", db]).status == 0)
        let input = file.directory.path("again.jsonl")
        try Data(#"""
            {"name":"New","status":{"case":"inStock","quantity":1}}
            {"id":"\#(gone)","name":"Gone again","status":{"case":"inStock","quantity":1}}

            """#.utf8).write(to: URL(fileURLWithPath: input))
        for mode in ["fail", "skip", "replace"] {
            let real = try Processes.stockroom(["import", input, "--on-conflict", mode, "--db", db])
            let dry = try Processes.stockroom(["import", "--dry-run", input, "--on-conflict", mode, "--db", db])
            // A rejected import is the one error of more than one line: the rows follow it.
            #expect(real.status == Failure.Code.dataError.rawValue, "\(mode): \(real)")
            #expect(dry.status == real.status, "\(mode): \(dry)")
            #expect(dry.stderr == real.stderr, "\(mode): the same refusal, line for line")
            #expect(real.stderr.contains("2: id \(gone) belonged to a deleted item"), "\(real)")
        }
    }

    /// A replace whose row holds exactly what is stored is skipped, not counted as replaced, and
    /// records nothing; the dry run says the same.
    @Test func aReplaceThatChangesNothingIsCountedAsSkipped() throws {
        let database = CLIDatabase()
        let mug = try database.stockroom("items", "add", "--name", "Mug", "--quantity", "2").output
        let input = database.directory.path("same.jsonl")
        try Data(#"""
            {"id":"\#(mug)","name":"Mug","status":{"case":"inStock","quantity":2},"updatedAt":"2020-01-01T00:00:00.000Z"}

            """#.utf8).write(to: URL(fileURLWithPath: input))
        let before = try database.contents()
        let dry = try database.stockroom("import", "--dry-run", input, "--on-conflict", "replace")
        #expect(dry.output == "dry run: 1 rows are valid; would import 0 items (1 skipped: unchanged); nothing was written", "\(dry)")
        let real = try database.stockroom("import", input, "--on-conflict", "replace", "--format-summary", "json")
        #expect(real.output.hasPrefix(#"{"rows":1,"imported":0,"skipped":1,"replaced":0,"#), "\(real)")
        #expect(try database.sqlite3("SELECT count(*) FROM item_events WHERE item_id = '\(mug)';") == "1")
        #expect(try database.sqlite3("SELECT updated_at <> '2020-01-01T00:00:00.000Z' FROM items;") == "1", "the row was left as it was")
        _ = before
    }
}
