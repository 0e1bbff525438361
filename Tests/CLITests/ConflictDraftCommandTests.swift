import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// A conflict's draft (`Draft.resolving`, migration 0012) through the binary: `draft list` and
/// `draft show` show it, `draft edit` edits it, `draft save` and `draft cancel` resolve it, and a file from before 0012 keeps its drafts.
@Suite struct ConflictDraftCommandTests {
    let database = CLIDatabase()

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// A migrated file holding the hand-written oversold conflict of ``ConflictRows``.
    func withConflict() throws {
        #expect(try database.stockroom("migrate", "up").status == 0)
        _ = try database.sqlite3(ConflictRows.insert())
    }

    @Test func listAndShowShowTheConflictAndReadOnly() throws {
        try withConflict()
        let before = try database.contents()
        let listed = try database.stockroom("draft", "list", "--format", "json")
        #expect(listed.status == 0, "\(listed)")
        let entries = try #require(try json(listed.output) as? [[String: Any]])
        #expect(entries.count == 1)
        let shown = try database.stockroom("draft", "show", "01937f4e-1111", "--format", "json")
        #expect(shown.status == 0, "\(shown)")
        let object = try #require(try json(shown.output) as? [String: Any])
        for entry in [entries[0], object] {
            #expect(entry["id"] as? String == ConflictRows.draftID)
            #expect(entry["case"] as? String == "resolving")
            #expect(entry["sourceItemId"] is NSNull)
            #expect((entry["item"] as? [String: Any])?["id"] as? String == ConflictRows.itemID)
            let conflict = try #require(entry["conflict"] as? [String: Any])
            #expect(conflict["reason"] as? String == "oversold")
            #expect(conflict["origin"] as? String == ConflictRows.origin)
            #expect(conflict["madeAt"] as? String == ConflictRows.madeAt)
            #expect(conflict["hubHoldsItem"] as? Bool == true)
            #expect(conflict["adjustment"] as? Int == -3 && conflict["missing"] as? Int == 1)
            #expect((conflict["shown"] as? [String: Any])?["location"] as? String == "Shelf B3")
        }
        #expect(shown.output.contains(#""case":"resolving""#))
        let table = try database.stockroom("draft", "list")
        #expect(table.lines.last?.contains("resolving: oversold, 1 missing") == true, "\(table)")
        let details = try database.stockroom("draft", "show", ConflictRows.draftID).lines
        #expect(details.contains("kind:     resolving a conflict"), "\(details)")
        #expect(details.contains("replica:  \(ConflictRows.origin)"), "\(details)")
        #expect(details.contains("made at:  \(ConflictRows.madeAt)"), "\(details)")
        #expect(details.contains("hub:      Keyboard  blue  Out of stock  Shelf B3"), "\(details)")
        #expect(details.contains { $0.hasPrefix("reason:") && $0.contains("1 missing") }, "\(details)")
        #expect(try database.contents() == before, "reading a conflict changed the file")
    }

    @Test func cancellingAConflictKeepsTheHubsValueAndSavingTakesTheDraftsItem() throws {
        try withConflict()
        // This file is the hub, and holds no such item (the hand-written row's hub item is
        // only shown): cancelling keeps that, and closes the conflict.
        #expect(try database.stockroom("draft", "cancel", ConflictRows.draftID).status == 0)
        #expect(try database.sqlite3("SELECT count(*) FROM drafts") == "0")
        #expect(try database.sqlite3("SELECT count(*) FROM items") == "0")
        _ = try database.sqlite3(ConflictRows.insert())
        let saved = try database.stockroom("draft", "save", ConflictRows.draftID)
        #expect(saved.status == 0, "\(saved)")
        #expect(try database.sqlite3("SELECT count(*) FROM drafts") == "0")
        #expect(try database.sqlite3("SELECT name FROM items") == "Keyboard", "the item as the draft held it, brought back")
        try database.expectRefusal("draft", "save", ConflictRows.draftID, code: .notFound)
    }

    @Test func editingAConflictChangesTheChoiceAndKeepsTheConflict() throws {
        try withConflict()
        let edited = try database.stockroom("draft", "edit", ConflictRows.draftID, "--quantity", "4")
        #expect(edited.output == "Keyboard  blue  In stock: 4", "\(edited)")
        let object = try #require(try json(try database.stockroom("draft", "show", ConflictRows.draftID, "--format", "json").output) as? [String: Any])
        #expect(((object["item"] as? [String: Any])?["status"] as? [String: Any])?["quantity"] as? Int == 4)
        let conflict = try #require(object["conflict"] as? [String: Any])
        #expect(((conflict["shown"] as? [String: Any])?["status"] as? [String: Any])?["case"] as? String == "outOfStock")
    }

    /// A draft of each kind as a version 10 database (before 0012) holds them.
    static let draftsBefore0012 = """
        INSERT INTO drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, created_at, updated_at, location)
        VALUES ('01937f4e-1111-7000-8000-000000000001', 'adding', NULL, '01937f4e-3333-7000-8000-000000000001', 'Mouse', 'black', 'in_stock', 3, NULL,
                '2026-11-20T10:00:00.000Z', '2026-11-20T10:05:00.000Z', 'Bin 4'),
               ('01937f4e-1111-7000-8000-000000000002', 'duplicating', '01937f4e-2222-7000-8000-000000000002', '01937f4e-3333-7000-8000-000000000002',
                '', NULL, 'out_of_stock', NULL, 1, '2026-11-21T10:00:00.000Z', '2026-11-21T10:00:00.000Z', NULL);
        """
    /// Every column a draft had before 0012, as text.
    static let oldColumns = "SELECT id, kind, coalesce(source_item_id, '-'), item_id, name, coalesce(color, '-'), status, coalesce(quantity::text, '-'), coalesce(is_on_back_order::text, '-'), created_at, updated_at, coalesce(location, '-') FROM drafts ORDER BY id;"
    /// A second draft of the first's new item: refused.
    static let secondDraftOfOneItem = """
        INSERT INTO drafts (id, kind, item_id, name, status, quantity, created_at, updated_at)
        VALUES ('01937f4e-1111-7000-8000-000000000003', 'adding', '01937f4e-3333-7000-8000-000000000001', 'Again', 'in_stock', 1,
                '2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.000Z');
        """
    /// Two conflicts about that item: accepted.
    static let twoConflictsOfOneItem = ConflictRows.insert(["item_id": "'01937f4e-3333-7000-8000-000000000001'"])
        + ConflictRows.insert(["id": "'01937f4e-1111-7000-8000-000000000004'", "item_id": "'01937f4e-3333-7000-8000-000000000001'"])

    /// A file of version 10 (before 0012) with a draft of each kind: read as it is, then
    /// migrated with every draft, id and time kept, and the new rule on item ids in place.
    @Test func aFileFromBefore0012KeepsItsDraftsThroughTheRebuild() throws {
        #expect(try database.stockroom("migrate", "up", "--to", "10").status == 0)
        _ = try database.sqlite3(Self.draftsBefore0012)
        let before = try database.contents()
        let read = try database.stockroom("draft", "list", "--format", "json")
        #expect(read.status == 0, "\(read)")
        #expect(try database.contents() == before, "reading a v10 file changed it")
        let rows = Self.oldColumns.replacingOccurrences(of: "::text", with: "")
        let old = try database.sqlite3(rows)
        #expect(try database.stockroom("migrate", "up").status == 0)
        #expect(try database.sqlite3(rows) == old)
        #expect(try database.stockroom("draft", "list", "--format", "json").output == read.output)
        #expect(try database.sqlite3("SELECT count(*) FROM drafts WHERE conflict_reason IS NOT NULL OR shown_name IS NOT NULL") == "0")
        #expect(try database.sqlite3("PRAGMA integrity_check") == "ok")
        #expect(try database.stockroom("migrate", "verify").status == 0)
        // One draft per new item still, while conflicts about one item are many.
        let second = try Processes.sqlite3(database.path, Self.secondDraftOfOneItem)
        #expect(second.status != 0 && second.stderr.contains("UNIQUE constraint failed: drafts.item_id"), "\(second)")
        _ = try database.sqlite3(Self.twoConflictsOfOneItem)
        #expect(try database.sqlite3("SELECT count(*) FROM drafts WHERE item_id = '01937f4e-3333-7000-8000-000000000001'") == "3")
    }

    /// The same on PostgreSQL, whose 0012 alters the table in place.
    @Test func aPostgreSQLDatabaseFromBefore0012KeepsItsDrafts() throws {
        let schema = try PostgresScratchSchema()
        func stockroom(_ arguments: String...) throws -> ProcessResult {
            try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": schema.uri])
        }
        #expect(try stockroom("migrate", "up", "--to", "10").status == 0)
        #expect(try schema.psql(Self.draftsBefore0012).stderr.isEmpty)
        let old = try schema.psql(Self.oldColumns).stdout
        #expect(old.split(separator: "\n").count == 2, "\(old)")
        let before = try stockroom("migrate", "up")
        #expect(before.status == 0, "\(before)")
        #expect(try schema.psql(Self.oldColumns).stdout == old)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(try stockroom("draft", "list", "--format", "json").stdout.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["case"] as? String } == ["adding", "duplicating"])
        #expect(try stockroom("migrate", "verify").status == 0)
        let second = try schema.psql(Self.secondDraftOfOneItem)
        #expect(second.stderr.contains("drafts_new_item_once"), "\(second)")
        #expect(try schema.psql(Self.twoConflictsOfOneItem).stderr.isEmpty)
        #expect(try schema.psql("SELECT count(*) FROM drafts WHERE item_id = '01937f4e-3333-7000-8000-000000000001';").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines) == "3")
    }

    /// `copy` moves a conflict's draft to a PostgreSQL server and back to a new file with every
    /// column (each engine's codec binds and reads them), and the server shows and resolves it
    /// as the file does.
    @Test func copyMovesAConflictBetweenTheEnginesAndBack() throws {
        try withConflict()
        let listed = try database.stockroom("draft", "list", "--format", "json")
        let schema = try PostgresScratchSchema()
        let toServer = try Processes.stockroom(["copy", "--from", database.path, "--to", schema.uri])
        #expect(toServer.status == 0, "\(toServer)")
        let onServer = try Processes.stockroom(["draft", "list", "--format", "json"], environment: ["STOCKROOM_DB": schema.uri])
        #expect(onServer.status == 0 && onServer.stdout == listed.stdout, "\(onServer)")
        let back = database.directory.path("back.sqlite")
        let toFile = try Processes.stockroom(["copy", "--from", schema.uri, "--to", back])
        #expect(toFile.status == 0, "\(toFile)")
        #expect(try Processes.stockroom(["draft", "list", "--format", "json"], environment: ["STOCKROOM_DB": back]).stdout == listed.stdout)
        let cancelled = try Processes.stockroom(["draft", "cancel", ConflictRows.draftID], environment: ["STOCKROOM_DB": schema.uri])
        #expect(cancelled.status == 0, "\(cancelled)")
        #expect(try Processes.stockroom(["draft", "list", "--format", "json"], environment: ["STOCKROOM_DB": schema.uri]).output == "[]")
    }
}
