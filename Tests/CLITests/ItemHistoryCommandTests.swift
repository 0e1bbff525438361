import Foundation
import StockroomMigrations
@testable import stockroom
import StockroomTestSupport
import Testing

/// `items history`, `--if-version`, and the append-only `item_events` table as the sqlite3
/// shell sees it.
@Suite struct ItemHistoryCommandTests {
    let database = CLIDatabase()
    static let time = "'2026-11-22T10:00:00.000Z'"

    func add(_ arguments: String...) throws -> String {
        let result = try database.stockroom(arguments: ["items", "add"] + arguments)
        #expect(result.status == 0, "\(result)")
        return result.output
    }

    @Test func historyIsPrintedOldestFirstAndOutlivesTheItem() throws {
        let id = try add("--name", "Mug", "--color", "blue", "--quantity", "5")
        #expect(try database.stockroom("items", "update", id, "--quantity", "3").status == 0)
        #expect(try database.stockroom("items", "update", id, "--name", "Blue mug", "--out-of-stock", "--back-order").status == 0)
        #expect(try database.stockroom("items", "delete", id).status == 0)

        let table = try database.stockroom("items", "history", String(id.prefix(6)).uppercased())
        #expect(table.status == 0, "\(table)")
        #expect(table.lines.count == 5)
        #expect(table.lines[0].hasPrefix("VERSION  TIME"))
        #expect(table.lines[1].hasPrefix("1 ") && table.lines[1].hasSuffix("Added 'Mug', blue, In stock: 5"))
        #expect(table.lines[2].hasPrefix("2 ") && table.lines[2].hasSuffix("Quantity 5 -> 3"))
        #expect(table.lines[3].hasSuffix("Renamed 'Mug' -> 'Blue mug'; Out of stock: on back order"))
        #expect(table.lines[4].hasPrefix("4 ") && table.lines[4].hasSuffix("Deleted"))

        let json = try database.stockroom("items", "history", id, "--format", "json")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(events.map { $0["version"] as? Int } == [1, 2, 3, 4])
        #expect(events.map { $0["kind"] as? String } == ["added", "changed", "changed", "deleted"])
        #expect(events.allSatisfy { ($0["recordedAt"] as? String)?.hasSuffix("Z") == true })
        #expect(((events[1]["status"] as? [String: Any])?["to"] as? [String: Any])?["quantity"] as? Int == 3)

        let csv = try database.stockroom("items", "history", id, "--format", "csv")
        #expect(csv.lines.first?.hasPrefix("item_id,version,recorded_at,kind,") == true)
        #expect(csv.lines.count == 5)
        // The raw columns: the row the sqlite3 shell shows.
        let raw = try database.sqlite3(".mode csv\nSELECT to_status, to_quantity FROM item_events WHERE item_id = '\(id)' AND version = 2;")
        #expect(raw == "in_stock,3")
        #expect(csv.lines[2].contains(",in_stock,5,,in_stock,3,"))
    }

    @Test func showGivesTheVersionAndIfVersionRefusesAStaleOne() throws {
        let id = try add("--name", "Mug")
        #expect(try database.stockroom("items", "show", id).lines.last == "version:  1")
        #expect(try database.stockroom("items", "update", id, "--quantity", "4", "--if-version", "1").status == 0)
        let json = try database.stockroom("items", "show", id, "--format", "json")
        #expect(json.output.hasSuffix(",\"version\":2}"))

        let before = try database.contents()
        let stale = try database.stockroom("items", "update", id, "--name", "Cup", "--if-version", "1")
        expectFailure(stale, code: .versionConflict, message: "item \(id) changed since version 1: it is at version 2 now; nothing was changed")
        #expect(try database.contents() == before)
        expectFailure(try database.stockroom("items", "update", id, "--name", "Cup", "--if-version", "0"), code: .usage)
    }

    @Test func listFiltersByStatusAndKeepsTheOldFlags() throws {
        _ = try add("--name", "Keyboard", "--quantity", "100")
        _ = try add("--name", "Phone", "--out-of-stock", "--back-order")
        _ = try add("--name", "Headphones", "--out-of-stock")
        func names(_ arguments: String...) throws -> [String] {
            try database.stockroom(arguments: ["items", "list", "--format", "csv"] + arguments).lines.dropFirst()
                .map { String($0.split(separator: ",")[1]) }
        }
        #expect(try names("--status", "in-stock") == ["Keyboard"])
        #expect(try names("--status", "out-of-stock") == ["Headphones", "Phone"])
        #expect(try names("--status", "on-back-order") == ["Phone"])
        #expect(try names("--in-stock") == ["Keyboard"])
        #expect(try names("--out-of-stock") == ["Headphones", "Phone"])
        #expect(try names("--back-order") == ["Phone"])
        expectFailure(try database.stockroom("items", "list", "--status", "sold"), code: .usage)
        expectFailure(try database.stockroom("items", "list", "--status", "in-stock", "--back-order"), code: .usage)
        let help = try database.stockroom("items", "list", "--help").output
        #expect(help.contains("--status <status>") && !help.contains("--back-order"))
        // CSV writes the status columns as stored.
        let csv = try database.stockroom("items", "list", "--format", "csv", "--status", "on-back-order").lines
        #expect(csv.last?.hasSuffix(",Phone,,out_of_stock,,1" + ItemShape.csvEmptyCells) == true, "\(csv)")
    }

    /// The columns of the first schema's history, which the event rows below give values to,
    /// in this order. Named in every `INSERT`, so a column a later field adds is left NULL.
    static let eventColumns = """
        item_id, version, kind, recorded_at, from_name, to_name, color_changed, from_color, to_color,
        from_status, from_quantity, from_is_on_back_order, to_status, to_quantity, to_is_on_back_order
        """

    /// Event rows as ``eventColumns`` values, each for an item whose history is empty.
    static func invalidEvents(_ id: String) -> [String] {
        let t = time
        return [
            "'\(id)', 1, 'created', \(t), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",   // unknown kind
            "'\(id)', 1, 'added', \(t), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",    // added without a name
            "'\(id)', 1, 'added', \(t), NULL, ' ', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",     // blank name
            "'\(id)', 1, 'added', \(t), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",         // added without a status
            "'\(id)', 1, 'added', \(t), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 0, NULL",     // quantity 0
            "'\(id)', 1, 'added', \(t), 'W', 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",      // added with a from_ side
            "'\(id)', 1, 'added', \(t), NULL, 'X', NULL, NULL, 'mauve', NULL, NULL, NULL, 'in_stock', 1, NULL",  // unknown colour
            "'\(id)', 2, 'added', \(t), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",     // added is version 1
            "'\(id)', 0, 'added', \(t), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",     // versions start at 1
            "'\(id)', 1, 'changed', \(t), 'A', 'B', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",          // changed is never first
            "'\(id)', 1, 'deleted', \(t), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",     // nor is deleted
            "'\(id)', 1, 'added', 'yesterday', NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL", // not a timestamp
            "'\(id.uppercased())', 1, 'added', \(t), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL",
        ]
    }

    /// Location pairs that break the tagging rule, as version 2 of an existing item: the
    /// ``eventColumns`` change nothing else, then `position, location_changed, from_location,
    /// to_location`. Dated now, so that the follow-on guard lets the row
    /// reach the CHECKs.
    static func invalidLocationChanges(_ id: String) -> [String] {
        let t = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
        let nothingElse = "'\(id)', 2, 'changed', \(t), NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"
        return [
            "\(nothingElse), (SELECT max(position) + 1 FROM item_events), 1, 'A', 'A'",     // moved to itself
            "\(nothingElse), (SELECT max(position) + 1 FROM item_events), 1, NULL, NULL",   // none to none
            "\(nothingElse), (SELECT max(position) + 1 FROM item_events), 0, NULL, NULL",   // the flag is 1 or NULL
            "\(nothingElse), (SELECT max(position) + 1 FROM item_events), NULL, 'A', 'B'",  // a pair without the flag
            "\(nothingElse), (SELECT max(position) + 1 FROM item_events), 1, 'A', ' B'",    // not trimmed
            "\(nothingElse), (SELECT max(position) + 1 FROM item_events), 1, 'A', 'B' || char(27)", // a control character
        ]
    }

    /// Changes that break the tagging rule of 'changed', as version 2 of an existing item.
    static func invalidChanges(_ id: String) -> [String] {
        let t = time
        return [
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",        // nothing changed
            "'\(id)', 2, 'changed', \(t), 'A', 'A', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",          // renamed to itself
            "'\(id)', 2, 'changed', \(t), 'A', NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",         // half a pair
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 1, 'red', 'red', NULL, NULL, NULL, NULL, NULL, NULL",      // same colour
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",        // none to none
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 0, 'red', NULL, NULL, NULL, NULL, NULL, NULL, NULL",       // colour without the flag
            "'\(id)', 2, 'changed', \(t), 'A', 'B', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",       // no colour flag
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 0, NULL, NULL, 'in_stock', 2, NULL, 'in_stock', 2, NULL",  // same status
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 0, NULL, NULL, 'in_stock', 2, NULL, NULL, NULL, NULL",     // half a status pair
            "'\(id)', 2, 'changed', \(t), NULL, NULL, 0, NULL, NULL, 'in_stock', 2, NULL, 'out_of_stock', NULL, 2", // bad flag
            "'\(id)', 2, 'deleted', \(t), 'A', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",      // deleted with a payload
            "'\(id)', 1, 'changed', \(t), 'A', 'B', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",          // a version taken
        ]
    }

    @Test func theShellRefusesEventsThatDoNotFitTheirKind() throws {
        let id = try add("--name", "Mug")
        let fresh = "01937f4e-1111-7000-8000-00000000000a"
        let before = try database.contents()
        // The next position (migration 0004), so that each row is refused for its shape.
        let position = "(SELECT max(position) + 1 FROM item_events)"
        for values in Self.invalidEvents(fresh) + Self.invalidChanges(id) {
            let result = try Processes.sqlite3(database.path, "INSERT INTO item_events (\(Self.eventColumns), position) VALUES (\(values), \(position));")
            #expect(result.status != 0, "accepted: \(values)")
            // A CHECK, or the guard of 0004 (a version that does not follow on).
            #expect(result.stderr.contains("constraint failed") || result.stderr.contains("item_events: version must be"),
                    "\(values): \(result.stderr)")
        }
        for values in Self.invalidLocationChanges(id) {
            let result = try Processes.sqlite3(database.path, "INSERT INTO item_events (\(Self.eventColumns), position, location_changed, from_location, to_location) VALUES (\(values));")
            #expect(result.status != 0 && result.stderr.contains("constraint failed"), "accepted: \(values): \(result.stderr)")
        }
        #expect(try database.contents() == before)
        // The same shapes, valid, are accepted: the rows above fail for the reason given. Dated
        // now: the guard refuses an event earlier than the one before it.
        let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
        let insert = "INSERT INTO item_events (\(Self.eventColumns), position"
        #expect(try database.sqlite3("\(insert)) VALUES ('\(id)', 2, 'changed', \(now), 'Mug', 'Cup', 1, NULL, 'red', 'in_stock', 1, NULL, 'out_of_stock', NULL, 1, \(position));") == "")
        #expect(try database.sqlite3("\(insert), location_changed, from_location, to_location) VALUES ('\(id)', 3, 'changed', \(now), NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \(position), 1, NULL, 'Shelf B3');") == "")
        #expect(try database.sqlite3("\(insert)) VALUES ('\(fresh)', 1, 'added', \(now), NULL, 'X', NULL, NULL, NULL, NULL, NULL, NULL, 'in_stock', 1, NULL, \(position));") == "")
        #expect(try database.sqlite3("\(insert)) VALUES ('\(fresh)', 2, 'deleted', \(now), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \(position));") == "")
    }

    @Test func theShellCannotUpdateOrDeleteHistory() throws {
        let id = try add("--name", "Mug")
        #expect(try database.stockroom("items", "delete", id).status == 0)
        let before = try database.contents()
        let update = try Processes.sqlite3(database.path, "UPDATE item_events SET to_name = 'Cup';")
        #expect(update.status != 0)
        #expect(update.stderr.contains("item_events is append-only: history cannot be changed"), "\(update)")
        let delete = try Processes.sqlite3(database.path, "DELETE FROM item_events WHERE item_id = '\(id)';")
        #expect(delete.status != 0)
        #expect(delete.stderr.contains("item_events is append-only: history cannot be deleted"), "\(delete)")
        #expect(try database.contents() == before)
        #expect(try database.sqlite3("SELECT count(*) FROM item_events;") == "2")
    }

    @Test func checkFindsHandBrokenHistory() throws {
        let kept = try add("--name", "Kept", "--quantity", "2")
        let edited = try add("--name", "Edited", "--quantity", "2")
        let gap = try add("--name", "Gap")
        let gone = try add("--name", "Gone")
        let closed = try add("--name", "Closed")
        #expect(try database.stockroom("items", "delete", closed).status == 0)
        #expect(try database.stockroom("items", "update", edited, "--quantity", "3").status == 0)
        #expect(try database.stockroom("items", "update", gap, "--name", "Gap 2").status == 0)
        #expect(try database.stockroom("check").status == 0)
        _ = try database.sqlite3("""
            DROP TRIGGER item_events_are_never_updated;
            DROP TRIGGER item_events_are_never_deleted;
            DROP TRIGGER item_events_follow_on;
            UPDATE item_events SET to_quantity = 7 WHERE item_id = '\(edited)' AND version = 2;
            UPDATE item_events SET version = 3 WHERE item_id = '\(gap)' AND version = 2;
            INSERT INTO item_events (\(Self.eventColumns)) VALUES ('\(closed)', 3, 'changed', \(Self.time), 'Closed', 'Reopened', 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
            DELETE FROM item_events WHERE item_id = '\(gone)';
            PRAGMA ignore_check_constraints = ON;
            UPDATE item_events SET to_quantity = 0 WHERE item_id = '\(kept)';
            """)
        let check = try database.stockroom("check")
        expectFailure(check, code: .dataError)
        let history = check.lines.filter { $0.hasPrefix("history: ") }
        #expect(history.contains { $0.contains(edited) && $0.contains("does not match its row") })
        #expect(history.contains { $0.contains(gap) && $0.contains("version 3 follows version 1") })
        #expect(history.contains { $0.contains("item \(gone) has no history") })
        #expect(check.lines.contains { $0.hasPrefix("rows: ") && $0.contains(kept) && $0.contains("to_quantity 0") }, "\(check)")
        #expect(history.contains { $0.contains(closed) && $0.contains("version 3 does not follow from version 2") })
        // The hand-written event has no position, and Gone's deleted event left a gap in them.
        #expect(history.contains { $0.hasSuffix("1 of 8 events have no position") }, "\(check)")
        #expect(history.contains { $0.contains("event positions are not 1 to 7 without gaps (7 distinct, the highest 8)") }, "\(check)")
        #expect(history.count == 6, "\(check)")
    }

    @Test func concurrentUpdatesGetGaplessVersions() throws {
        let id = try add("--name", "Counter", "--quantity", "1")
        let workers = 4, updates = 10
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            results.append(Result {
                try Processes.run("/bin/bash", ["-c", """
                    for i in $(seq 1 \(updates)); do
                        "$STOCKROOM" items update "\(id)" --name "worker \(worker) update $i" > /dev/null || exit 1
                    done
                    """], environment: ["STOCKROOM": Processes.stockroomPath, "STOCKROOM_DB": database.path])
            })
        }
        for result in results.all {
            let finished = try result.get()
            #expect(finished.status == 0, "\(finished)")
        }
        let versions = try database.sqlite3("SELECT group_concat(version) FROM (SELECT version FROM item_events WHERE item_id = '\(id)' ORDER BY version);")
        #expect(versions == (1...(1 + workers * updates)).map(String.init).joined(separator: ","))
        #expect(try database.stockroom("items", "show", id).lines.last == "version:  \(1 + workers * updates)")
        #expect(try database.stockroom("check").status == 0)
    }

    @Test func ofTwoRacingIfVersionUpdatesExactlyOneWins() throws {
        let id = try add("--name", "Contested")
        for round in 1...8 {
            let results = ResultsBox()
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                results.append(Result {
                    try database.stockroom("items", "update", id, "--name", "round \(round) worker \(worker)",
                                           "--if-version", String(round))
                })
            }
            let finished = try results.all.map { try $0.get() }
            let winners = finished.filter { $0.status == 0 }
            let losers = finished.filter { $0.status != 0 }
            #expect(winners.count == 1 && losers.count == 1, "round \(round): \(finished)")
            for loser in losers {
                expectFailure(loser, code: .versionConflict)
                #expect(loser.errorMessage.hasSuffix("it is at version \(round + 1) now; nothing was changed"), "round \(round): \(loser)")
            }
            let name = try database.stockroom("items", "show", id, "--format", "json").output
            #expect(winners.first.map { name.contains($0.output.components(separatedBy: "  ")[0]) } == true)
        }
        #expect(try database.stockroom("items", "show", id).lines.last == "version:  9")
    }

    @Test func theMigrationGivesEveryExistingItemItsFirstVersion() throws {
        let migrations = MigrationSet.embedded(.sqlite).migrations
        let history = try #require(migrations.first { $0.fileName.hasSuffix("_item_events.sql") })
        let before = try #require(migrations.last { $0.version < history.version })
        #expect(try database.stockroom("migrate", "up", "--to", String(before.version)).status == 0)
        _ = try database.sqlite3("""
            INSERT INTO items VALUES ('01937f4e-1111-7000-8000-000000000001', 'Old mug', 'blue', 'in_stock', 4, NULL,
                                      '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
            INSERT INTO items VALUES ('01937f4e-1111-7000-8000-000000000002', 'Old lamp', NULL, 'out_of_stock', NULL, 1,
                                      '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
            """)
        #expect(try database.stockroom("migrate", "up").status == 0)
        let lamp = try database.stockroom("items", "history", "01937f4e-1111-7000-8000-000000000002")
        #expect(lamp.lines.dropFirst() == ["1        2026-03-01T00:00:00.000Z  Added 'Old lamp', no colour, Out of stock: on back order"])
        #expect(try database.sqlite3("SELECT count(*) FROM item_events WHERE version = 1 AND kind = 'added';") == "2")
        #expect(try database.stockroom("check").status == 0)
    }
}
