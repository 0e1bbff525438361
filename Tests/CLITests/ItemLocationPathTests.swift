import Foundation
import StockroomTestSupport
import Testing

/// The item's `location` walked through every path on both engines, through the real binary:
/// the CLI's options and filter, `items show` (text and JSON), history (written by the
/// triggers, also for a change made by hand in `sqlite3` or `psql`), CSV and JSON Lines export
/// and import back, and an old export without the column. A path that forgets the field fails
/// here on the engine that forgets it.
@Suite struct ItemLocationPathTests {
    typealias Target = PostgresCLITests.Target

    /// Runs `arguments`, which must succeed, and returns its stdout.
    @discardableResult
    func run(_ target: Target, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try target.stockroom(arguments)
        #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// Runs `sql` as a person would by hand: the sqlite3 shell on a file, psql on a server.
    func byHand(_ target: Target, _ sql: String) throws {
        if let schema = target.schema {
            let result = try schema.psql(sql)
            #expect(result.status == 0, "\(result)")
        } else {
            let result = try Processes.sqlite3(target.db, sql)
            #expect(result.status == 0, "\(result)")
        }
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func lines(_ text: String) -> [String] {
        // CSV ends its records with CRLF, which Swift reads as one Character.
        text.split(whereSeparator: \.isNewline).map(String.init)
    }

    @Test(arguments: [false, true])
    func theLocationGoesThroughEveryPath(server: Bool) throws {
        let target = try Target(server: server)
        // Trimmed on the way in; shown by `items show` and `list`.
        let id = try run(target, "items", "add", "--name", "Mug", "--location", "  Shelf B3 ").trimmingCharacters(in: .whitespacesAndNewlines)
        let other = try run(target, "items", "add", "--name", "Cup").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(target, "items", "show", id).contains("location: Shelf B3"))
        #expect(try json(run(target, "items", "show", id, "--format", "json"))["location"] as? String == "Shelf B3")
        #expect(try json(run(target, "items", "show", other, "--format", "json"))["location"] is NSNull)
        #expect(try run(target, "items", "list").contains("Shelf B3"))

        // The filter: the whole location, letters in any case.
        let filtered = try run(target, "items", "list", "--location", "shelf b3", "--format", "json")
        #expect(filtered.contains(id) && !filtered.contains(other))
        #expect(!(try run(target, "items", "list", "--location", "Shelf", "--format", "json")).contains(id))
        // A blank filter is refused, not read as "every item" (or "no item").
        let blank = try target.stockroom(["items", "list", "--location", "  "])
        #expect(blank.status == 64 && blank.stdout.isEmpty, "\(blank)")
        #expect(blank.stderr == "error: --location: give the location to list, not a blank one\n", "\(blank)")

        // Changed and removed: each a 'changed' event with its pair.
        try run(target, "items", "update", id, "--location", "Shelf C1")
        try run(target, "items", "update", id, "--no-location")
        // By hand, past Stockroom: the triggers record it too.
        try byHand(target, "UPDATE items SET location = 'Back room' WHERE id = '\(id)';")
        let history = try run(target, "items", "history", id)
        #expect(history.contains("Added 'Mug', no colour, In stock: 1, at 'Shelf B3'"))
        #expect(history.contains("Location 'Shelf B3' -> 'Shelf C1'"))
        #expect(history.contains("Location 'Shelf C1' -> none"))
        #expect(history.contains("Location none -> 'Back room'"))
        let events = try #require(try JSONSerialization.jsonObject(with: Data(run(target, "items", "history", id, "--format", "json").utf8)) as? [[String: Any]])
        #expect(events.count == 4)
        let pairs = events.dropFirst().map { $0["location"] as? [String: Any] }
        #expect(pairs.map { $0?["from"] as? String } == ["Shelf B3", "Shelf C1", nil])
        #expect(pairs.map { $0?["to"] as? String } == ["Shelf C1", nil, "Back room"])

        // A location pair without its flag, written by hand, is refused by the tagging CHECK
        // (a NULL flag must not let the row through).
        let unflagged = target.schema == nil
            ? "INSERT INTO item_events (item_id, version, kind, recorded_at, color_changed, from_location, to_location, position) VALUES ('\(id)', 5, 'changed', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 0, 'A', 'B', (SELECT max(position) + 1 FROM item_events));"
            : "INSERT INTO item_events (item_id, version, kind, recorded_at, color_changed, from_location, to_location) VALUES ('\(id)', 5, 'changed', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), 0, 'A', 'B');"
        let refusedEvent = try target.schema.map { try $0.psql(unflagged) } ?? Processes.sqlite3(target.db, unflagged)
        #expect(refusedEvent.status != 0 && refusedEvent.stderr.contains("payload_matches_kind"), "\(refusedEvent)")

        // Refused before anything is written: a control character, too long.
        #expect(try target.stockroom(["items", "update", id, "--location", "a\u{1B}[2J"]).status == 64)
        #expect(try target.stockroom(["items", "add", "--name", "X", "--location", String(repeating: "x", count: 201)]).status == 64)
        // The database refuses one written by hand.
        if let schema = target.schema {
            #expect(try schema.psql("UPDATE items SET location = ' padded' WHERE id = '\(id)';").status != 0)
        } else {
            #expect(try Processes.sqlite3(target.db, "UPDATE items SET location = char(27) WHERE id = '\(id)';").status != 0)
        }

        // Export and import back, in both formats, on a fresh target of the same engine.
        for format in ["csv", "jsonl"] {
            let exported = try run(target, "export", "--format", format)
            #expect(exported.contains("Back room"))
            let copy = try Target(server: server)
            let file = copy.directory.path("items.\(format)")
            try exported.write(toFile: file, atomically: true, encoding: .utf8)
            try run(copy, "import", file)
            #expect(try json(run(copy, "items", "show", id, "--format", "json"))["location"] as? String == "Back room")
            #expect(try json(run(copy, "items", "show", other, "--format", "json"))["location"] is NSNull)
            #expect(try run(copy, "export", "--format", format) == exported)
        }
        if !server {
            let header = lines(try run(target, "export", "--format", "csv"))[0]
            #expect(header == "id,name,color,status,quantity,is_on_back_order" + ItemShape.csvColumns + ",created_at,updated_at")
            #expect(ItemShape.csvColumns.contains(",location"))
        }
    }

    @Test(arguments: [false, true])
    func anExportFromBeforeTheColumnImportsWithNoLocation(server: Bool) throws {
        let target = try Target(server: server)
        let csv = target.directory.path("old.csv")
        try "id,name,color,status,quantity,is_on_back_order,created_at,updated_at\r\n,Lamp,red,in_stock,2,,,\r\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let jsonl = target.directory.path("old.jsonl")
        try "{\"name\":\"Desk\",\"color\":null,\"status\":{\"case\":\"outOfStock\",\"isOnBackOrder\":false}}\n"
            .write(toFile: jsonl, atomically: true, encoding: .utf8)
        try run(target, "import", csv)
        try run(target, "import", jsonl)
        let listed = lines(try run(target, "items", "list", "--format", "csv"))
        #expect(listed.count == 3)
        // The six columns of the first schema, then an empty cell for the location and every other
        // field the old files do not have.
        #expect(listed.dropFirst().allSatisfy {
            $0.split(separator: ",", omittingEmptySubsequences: false).count == 6 + ItemShape.emptyFields.count && $0.hasSuffix(ItemShape.csvEmptyCells)
        }, "\(listed)")
    }
}
