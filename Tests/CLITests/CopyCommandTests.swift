import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `stockroom copy`: the real binary between real files and a real throwaway server.
@Suite struct CopyCommandTests {
    /// Every row of the three tables, in key order, as the `sqlite3` shell prints them.
    static let fileRowsSQL = """
        SELECT * FROM items ORDER BY id;
        SELECT * FROM item_events ORDER BY item_id, version;
        SELECT * FROM drafts ORDER BY id;
        """

    /// An inventory with every kind of row: items in both statuses, a change of each field, a
    /// deleted item's history, both kinds of draft, and names COPY must escape.
    static func filledInventory() throws -> CLIDatabase {
        let database = CLIDatabase()
        let mug = try database.stockroom("items", "add", "--name", "Mug", "--color", "blue", "--quantity", "5").output
        let cup = try database.stockroom("items", "add", "--name", #"Cup \N with a backslash"#, "--out-of-stock", "--back-order").output
        let gone = try database.stockroom("items", "add", "--name", "Gone", "--quantity", "1").output
        try database.stockroom("items", "update", mug, "--name", "Big mug", "--no-color", "--out-of-stock")
        try database.stockroom("items", "update", cup, "--quantity", "3", "--color", "red", "--location", "Shelf B3")
        try database.stockroom("items", "delete", gone)
        try database.stockroom("draft", "add", "--name", "New plate", "--quantity", "2", "--location", "Attic")
        try database.stockroom("draft", "duplicate", cup)
        // Tabs, line breaks and backslashes are refused on the command line but valid in the
        // schema: written as a person could with the sqlite3 shell (whose insert the database
        // records as the item's version 1: 7 events in all).
        _ = try database.sqlite3("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('00000000-0000-7000-8000-000000000001', 'Tab' || char(9) || 'line' || char(10) || 'cr' || char(13) || 'end\\', NULL,
                    'in_stock', 9, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
            """)
        return database
    }

    @discardableResult
    static func copy(_ arguments: String...) throws -> ProcessResult {
        try Processes.stockroom(["copy"] + arguments)
    }

    @Test func aFileCopiedToAServerToAnotherAndBackIsTheSameInventoryAndTheSourceIsUntouched() throws {
        let original = try CopyCommandTests.filledInventory()
        let before = try original.contents()
        let server = try PostgresScratchSchema()
        let back = CLIDatabase()

        let there = try CopyCommandTests.copy("--from", original.path, "--to", server.uri, "--format", "json")
        #expect(there.status == 0, "\(there)")
        #expect(there.stderr.isEmpty, "no progress in a pipe: \(there)")
        #expect(there.output.contains(#""items":3,"itemEvents":7,"drafts":2"#), "\(there)")
        let second = try PostgresScratchSchema()
        let across = try CopyCommandTests.copy("--from", server.uri, "--to", second.uri, "--format", "json")
        #expect(across.status == 0, "server to server: \(across)")
        let returned = try CopyCommandTests.copy("--from", second.uri, "--to", back.path, "--format", "json")
        #expect(returned.status == 0, "\(returned)")

        #expect(try original.contents() == before, "the source file is byte-identical")
        let originalRows = try original.sqlite3(CopyCommandTests.fileRowsSQL)
        #expect(originalRows.contains("Tab\tline\ncr\rend\\"))
        #expect(originalRows.contains("|Shelf B3") && originalRows.contains("|Attic"), "the location and its history pair are copied")
        #expect(try back.sqlite3(CopyCommandTests.fileRowsSQL) == originalRows)
        #expect(CopyCommandTests.checksum(there) != nil)
        #expect(CopyCommandTests.checksum(there) == CopyCommandTests.checksum(across))
        #expect(CopyCommandTests.checksum(there) == CopyCommandTests.checksum(returned))
        #expect(try back.stockroom("migrate", "verify").status == 0)
        // On the server the history stays append-only and the indexes are all back.
        let refused = try server.psql("DELETE FROM item_events")
        #expect(refused.status != 0 && refused.stderr.contains("append-only"), "\(refused)")
        let indexes = try server.psql("SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '%\\_by\\_%'")
        // drafts_by_created, items_by_name, _by_status_name, _by_color_name, the search index
        // items_by_name_trigram (0005) and item_events_by_position (0004).
        #expect(indexes.stdout == "6\n", "\(indexes)")
        // And it has the planner statistics a bulk load should leave (the copy runs ANALYZE of
        // the indexed columns before verifying; autovacuum never analyzes tables this small).
        let analyzed = try server.psql("""
            SELECT string_agg(tablename || '.' || attname, ' ' ORDER BY tablename, attname) FROM pg_stats
            WHERE schemaname = current_schema() AND tablename IN ('items', 'item_events')
            """)
        #expect(analyzed.stdout == "item_events.item_id item_events.position item_events.version items.color items.id items.name items.status\n",
                "\(analyzed)")
    }

    @Test func aDestinationThatHoldsAnInventoryIsRefusedWithoutForceAndReplacedWithIt() throws {
        let source = try CopyCommandTests.filledInventory()
        let destination = CLIDatabase()
        let kept = try destination.stockroom("items", "add", "--name", "Kept", "--quantity", "1").output
        let before = try DatabaseSnapshot.of(destination.path)

        let refused = try CopyCommandTests.copy("--from", source.path, "--to", destination.path)
        expectFailure(refused, code: .cannotCreate, mentioning: "already holds an inventory (1 items, 1 history events, 0 drafts)")
        #expect(refused.stdout.isEmpty)
        #expect(try DatabaseSnapshot.of(destination.path) == before, "nothing changed")

        let server = try PostgresScratchSchema()
        #expect(try Processes.stockroom(["items", "add", "--name", "On the server", "--quantity", "1"],
                                        environment: ["STOCKROOM_DB": server.uri]).status == 0)
        let serverBefore = try server.psql("SELECT * FROM items; SELECT * FROM item_events").stdout
        let refusedOnServer = try CopyCommandTests.copy("--from", source.path, "--to", server.uri)
        expectFailure(refusedOnServer, code: .cannotCreate, mentioning: "already holds an inventory")
        #expect(try server.psql("SELECT * FROM items; SELECT * FROM item_events").stdout == serverBefore)

        let replaced = try CopyCommandTests.copy("--from", source.path, "--to", destination.path, "--force")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try destination.sqlite3(CopyCommandTests.fileRowsSQL) == (try source.sqlite3(CopyCommandTests.fileRowsSQL)))
        #expect(!(try destination.sqlite3("SELECT id FROM items")).contains(kept))
        let stillAppendOnly = try Processes.sqlite3(destination.path, "DELETE FROM item_events")
        #expect(stillAppendOnly.status != 0 && stillAppendOnly.stderr.contains("append-only"), "\(stillAppendOnly)")
        #expect(try destination.stockroom("migrate", "verify").status == 0)
        // The search index is derived, not copied: rebuilt from the copied rows, the replaced
        // item gone from it and every copied name found through it.
        let integrity = try Processes.sqlite3(destination.path, "INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)")
        #expect(integrity.status == 0, "\(integrity)")
        #expect(try destination.stockroom("items", "list", "--search", "big m", "--format", "csv").output.contains("Big mug"))
        #expect(try destination.stockroom("items", "list", "--search", "kept", "--format", "csv").output.split(separator: "\n").count == 1)

        let replacedOnServer = try CopyCommandTests.copy("--from", source.path, "--to", server.uri, "--force")
        #expect(replacedOnServer.status == 0, "\(replacedOnServer)")
        let names = try server.psql("SELECT string_agg(name, ',' ORDER BY name) FROM items").stdout
        #expect(names.contains("Big mug") && !names.contains("On the server"), "\(names)")
    }

    @Test func aSourceWithARowThatDoesNotDecodeCopiesNothing() throws {
        let source = try CopyCommandTests.filledInventory()
        // A status the CHECKs would refuse, written around them as only a damaged file holds.
        _ = try Processes.sqlite3(source.path, """
            PRAGMA ignore_check_constraints = ON;
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('ffffffff-ffff-7fff-bfff-ffffffffffff', 'Broken', NULL, 'lost', NULL, NULL,
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
            """)
        let server = try PostgresScratchSchema()
        let failed = try CopyCommandTests.copy("--from", source.path, "--to", server.uri)
        expectFailure(failed, code: .dataError, mentioning: "items row id 'ffffffff-ffff-7fff-bfff-ffffffffffff' cannot be read")
        let counts = try server.psql("SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM item_events) + (SELECT count(*) FROM drafts) AS total")
        #expect(counts.stdout == "0\n", "the schema is migrated, no row written: \(counts)")

        let file = CLIDatabase()
        let failedIntoFile = try CopyCommandTests.copy("--from", source.path, "--to", file.path)
        expectFailure(failedIntoFile, code: .dataError, mentioning: "cannot be read")
        #expect(!file.exists, "the destination file the copy created is gone again")
    }

    /// The verification compares what the destination holds before committing with what was
    /// read from the source, not with what was sent: a destination that stores something else
    /// is refused and left as it was. Here a trigger of the destination's own renames each
    /// draft as it is inserted (the copy sets aside only the history triggers of `items` and
    /// `item_events`), and, on the server, a column whose type prints the same quantity
    /// otherwise (`3.0`).
    @Test func aDestinationThatStoresOtherRowsThanTheSourceHeldIsRefusedAndLeftAsItWas() throws {
        let source = try CopyCommandTests.filledInventory()
        let rename = """
            CREATE TRIGGER drafts_renamed AFTER INSERT ON drafts FOR EACH ROW
            BEGIN UPDATE drafts SET name = name || '!' WHERE id = NEW.id; END;
            """

        let file = CLIDatabase()
        try file.stockroom("migrate", "up")
        _ = try file.sqlite3(rename)
        let fileBefore = try DatabaseSnapshot.of(file.path)
        let refusedFile = try CopyCommandTests.copy("--from", source.path, "--to", file.path)
        expectFailure(refusedFile, code: .ioError, mentioning: "the copy of drafts does not match the source (2 rows")
        #expect(try DatabaseSnapshot.of(file.path) == fileBefore, "nothing committed")

        let server = try PostgresScratchSchema()
        #expect(try Processes.stockroom(["migrate", "up"], environment: ["STOCKROOM_DB": server.uri]).status == 0)
        let renamed = try server.psql("""
            CREATE FUNCTION rename_draft() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.name := NEW.name || '!'; RETURN NEW; END $$;
            CREATE TRIGGER drafts_renamed BEFORE INSERT ON drafts FOR EACH ROW EXECUTE FUNCTION rename_draft();
            """)
        #expect(renamed.status == 0 && renamed.stderr.isEmpty, "\(renamed)")
        let empty = "SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM item_events) + (SELECT count(*) FROM drafts) AS total"
        let refused = try CopyCommandTests.copy("--from", source.path, "--to", server.uri)
        expectFailure(refused, code: .ioError, mentioning: "the copy of drafts does not match the source (2 rows")
        #expect(try server.psql(empty).stdout == "0\n", "nothing committed")

        // The column's type changes under the trigger that names it, which is put back as it was.
        let retyped = try server.psql("""
            DROP TRIGGER drafts_renamed ON drafts;
            DO $$
            DECLARE definition text := pg_get_triggerdef((SELECT oid FROM pg_trigger
                WHERE tgrelid = 'items'::regclass AND tgname = 'items_record_changes'));
            BEGIN
                DROP TRIGGER items_record_changes ON items;
                ALTER TABLE items ALTER COLUMN quantity TYPE numeric(20, 1);
                EXECUTE definition;
            END $$;
            """)
        #expect(retyped.status == 0 && retyped.stderr.isEmpty, "\(retyped)")
        let refusedItems = try CopyCommandTests.copy("--from", source.path, "--to", server.uri)
        expectFailure(refusedItems, code: .ioError, mentioning: "the copy of items does not match the source (3 rows")
        #expect(try server.psql(empty).stdout == "0\n", "nothing committed")
        #expect(try server.psql("SELECT tgenabled FROM pg_trigger WHERE tgrelid = 'items'::regclass AND tgname = 'items_record_added'").stdout == "O\n",
                "the history triggers are back as they were")
    }

    /// Copying into a file must not give the heap back to the kernel and take it again for
    /// every row (SQLiteCore's HeapPadding): counted in `brk` calls under strace, not timed.
    /// Without the padding this copy made two calls a row (about 6,000).
    @Test func copyingIntoAFileDoesNotShrinkAndGrowTheHeapForEveryRow() throws {
        let source = CLIDatabase()
        try source.stockroom("migrate", "up")
        let rows = 3_000
        try source.addBulkItems(rows)
        let destination = source.directory.path("copy.sqlite")
        let trace = source.directory.path("brk.txt")
        let result = try Processes.run("/usr/bin/strace", [
            "-f", "-c", "-e", "trace=brk", "-o", trace,
            Processes.stockroomPath, "copy", "--from", source.path, "--to", destination,
        ])
        #expect(result.status == 0, "\(result)")
        let summary = try String(contentsOfFile: trace, encoding: .utf8)
        let calls = summary.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.last == "brk" ? Int(fields[3]) : nil
        }.first
        let brk = try #require(calls, "strace's summary has no brk line: \(summary)")
        #expect(brk < rows / 10, "\(brk) brk calls copying \(rows) rows")
    }

    @Test func progressShowsOnATerminalOnly() throws {
        let source = try CopyCommandTests.filledInventory()
        let destination = CLIDatabase()
        let terminal = try PseudoTerminalProcess(Processes.stockroomPath,
                                                 ["copy", "--from", source.path, "--to", destination.path])
        _ = try terminal.expect("copy: verifying drafts: 2 of 2 rows")
        _ = try terminal.expect("copied 3 items, 7 history events and 2 drafts")
        #expect(try terminal.waitForExit() == 0)

        let another = CLIDatabase()
        let piped = try CopyCommandTests.copy("--from", source.path, "--to", another.path)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
    }

    @Test func badLocationsAreRefusedWithOneLine() throws {
        let source = try CopyCommandTests.filledInventory()
        expectFailure(try CopyCommandTests.copy("--from", source.path, "--to", source.path), code: .usage, mentioning: "the same database")
        let missing = CLIDatabase(), destination = CLIDatabase()
        expectFailure(try CopyCommandTests.copy("--from", missing.path, "--to", destination.path), code: .notFound,
                      message: "no database at \(missing.path)")
        let secret = try CopyCommandTests.copy("--from", "postgresql://copier:s3cret@127.0.0.1:1/inventory", "--to", destination.path)
        expectFailure(secret, code: .busy)
        #expect(!secret.stderr.contains("s3cret"), "\(secret)")
        #expect(!destination.exists, "nothing created")
    }

    static func checksum(_ result: ProcessResult) -> String? {
        guard let range = result.output.range(of: #""checksum":"[0-9a-f]{16}""#, options: .regularExpression) else { return nil }
        return String(result.output[range])
    }
}
