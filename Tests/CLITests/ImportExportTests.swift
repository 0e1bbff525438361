import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom import` and `stockroom export` through the real binary, on real files.
@Suite struct ImportExportTests {
    /// A database holding items that exercise every column and every quoting rule.
    func seeded() throws -> CLIDatabase {
        let database = CLIDatabase()
        for arguments in [
            ["--name", "Keyboard", "--color", "blue", "--quantity", "100"],
            ["--name", "=SUM(A1), \"quoted\"", "--quantity", "2"],
            ["--name", "'apostrophe"],
            ["--name=-5 volts", "--color", "red"],
            ["--name", "No-break\u{00A0}space", "--out-of-stock", "--back-order"],
            ["--name", "ideographic\u{3000}space and é ☃", "--out-of-stock"],
            ["--name", "@home, \\ slash", "--color", "yellow", "--quantity", "7"],
        ] {
            let result = try database.stockroom(arguments: ["items", "add"] + arguments)
            #expect(result.status == 0, "\(result)")
        }
        return database
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: ["csv", "jsonl"])
    func exportImportExportIsByteIdentical(format: String) throws {
        let source = try seeded()
        let first = source.directory.path("first.\(format)")
        #expect(try source.stockroom("export", "--format", format, "--output", first).status == 0)
        let target = CLIDatabase()
        let imported = try target.stockroom("import", first)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.hasPrefix("imported 7 items in "))
        #expect(try target.sqlite3("SELECT count(*) FROM item_events WHERE version = 1 AND kind = 'added';") == "7")
        let check = try target.stockroom("check")
        #expect(check.status == 0, "\(check)")
        let second = target.directory.path("second.\(format)")
        #expect(try target.stockroom("export", "--format", format, "-o", second).status == 0)
        #expect(try bytes(first) == bytes(second))
        #expect(try bytes(first).count > 500)
    }

    @Test func exportToStandardOutputEqualsTheFileAndJSONArrayHoldsTheSameObjects() throws {
        let database = try seeded()
        let file = database.directory.path("items.jsonl")
        #expect(try database.stockroom("export", "-o", file).status == 0)
        let stdout = try database.stockroom("export")
        #expect(Data(stdout.stdout.utf8) == (try bytes(file)))
        let array = try database.stockroom("export", "--format", "json")
        #expect(array.output == "[" + stdout.lines.joined(separator: ",") + "]")
        let objects = try JSONSerialization.jsonObject(with: Data(array.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 7)
    }

    @Test func exportedObjectsAreThoseOfItemsShowPlusTimes() throws {
        let database = try seeded()
        for line in try database.stockroom("export").lines {
            let id = String(line.dropFirst(7).prefix(36))
            // `items show` adds the item's version; an export leaves history out (an import
            // starts each item's history afresh), so the round trip stays byte-identical.
            let shown = try database.stockroom("items", "show", id, "--format", "json").output
                .replacingOccurrences(of: #","version":1}"#, with: "}")
            #expect(line.hasPrefix(String(shown.dropLast())) && line.dropFirst(shown.count - 1).hasPrefix(",\"createdAt\":\""), "\(line) vs \(shown)")
        }
    }

    @Test func csvHasTheColumnsOfItemsListThenTheTimesOrderedByID() throws {
        let database = try seeded()
        let exported = try database.stockroom("export", "--format", "csv")
        #expect(exported.stdout.contains("\r\n"))
        let listed = try database.stockroom("items", "list", "--format", "csv")
        #expect(exported.lines[0] == listed.lines[0] + ",created_at,updated_at")
        // Same records but for the formula guard on names and the two time columns.
        let csvRecords = { (text: String) -> [String] in text.components(separatedBy: "\r\n").filter { !$0.isEmpty } }
        let exportedRows = csvRecords(exported.stdout).dropFirst()
        let ids = exportedRows.map { String($0.prefix(36)) }
        #expect(ids == ids.sorted())
        #expect(Set(ids) == Set(csvRecords(listed.stdout).dropFirst().map { String($0.prefix(36)) }))
        // Names a spreadsheet would run as formulas carry a leading apostrophe.
        #expect(exported.stdout.contains(",\"'=SUM(A1), \"\"quoted\"\"\","))
        #expect(exported.stdout.contains(",''apostrophe,"))
        #expect(exported.stdout.contains(",'-5 volts,red,"))
        #expect(exported.stdout.contains(",\"'@home, \\ slash\",yellow,"))
        #expect(exported.stdout.contains(",No-break\u{00A0}space,,out_of_stock,,1,"))
        // The back-order flag as `items list --format csv` writes the raw column: 1 or 0.
        #expect(exported.stdout.contains(",ideographic\u{3000}space and é ☃,,out_of_stock,,0,"))
    }

    @Test func exportedJSONEscapesControlCharactersAsItemsShowDoes() throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("migrate", "up").status == 0)
        // Only a hand edit can store such a name: ESC (C0), DEL and NEL (C1).
        let id = "abcd0000-0000-7000-8000-0000000000c1"
        _ = try database.sqlite3("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('\(id)', 'a' || char(27) || 'b' || char(127) || 'c' || char(133) || 'd', NULL, 'in_stock', 1, NULL,
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
            """)
        let shown = try database.stockroom("items", "show", id, "--format", "json")
        #expect(shown.status == 0, "\(shown)")
        let exported = try database.stockroom("export", "--format", "jsonl")
        #expect(exported.status == 0, "\(exported)")
        let escaped = "\"name\":\"a\\u001bb\\u007fc\\u0085d\""
        #expect(shown.stdout.contains(escaped), "\(shown)")
        #expect(exported.stdout.contains(escaped), "\(exported)")
        #expect(!exported.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x7F || $0.value == 0x85 })
    }

    @Test func exportChangesNothingInTheDatabaseFile() throws {
        let database = try seeded()
        let before = try database.contents()
        for format in ["csv", "jsonl", "json"] {
            #expect(try database.stockroom("export", "--format", format).status == 0)
        }
        #expect(try database.contents() == before)
    }

    @Test func anExportThatFailsLeavesTheOutputFileAsItWasAndNoTemporaryFile() throws {
        let directory = TemporaryDirectory()
        let notADatabase = directory.path("notes.sqlite")
        try write(Array("just text, not a database\n".utf8), to: notADatabase)
        let output = directory.path("out.csv")
        try write(Array("previous export\n".utf8), to: output)
        let result = try Processes.stockroom(["export", "--format", "csv", "-o", output, "--db", notADatabase])
        expectFailure(result, code: .ioError)
        #expect(try bytes(output) == Data("previous export\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["notes.sqlite", "out.csv"])
        let missingFolder = try Processes.stockroom(["export", "-o", directory.path("no/such/out.csv"), "--db", notADatabase])
        expectFailure(missingFolder, code: .ioError)  // the database is refused before the output is opened
    }

    @Test func aSuccessfulExportReplacesTheFileAndLeavesNoTemporaryFile() throws {
        let database = try seeded()
        let output = database.directory.path("out.csv")
        try write(Array("old\n".utf8), to: output)
        #expect(try database.stockroom("export", "--format", "csv", "-o", output).status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("id,name,color,"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: database.directory.url.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    // MARK: Bad rows

    @Test func everyKindOfBadCSVRowIsListedWithItsLineAndNothingIsImported() throws {
        let database = try seeded()
        let before = try DatabaseSnapshot.of(database.path)
        let existing = String(try database.stockroom("export").lines[0].dropFirst(7).prefix(36))
        let file = database.directory.path("bad.csv")
        var text = "id,name,color,status,quantity,is_on_back_order\n"      // 1
        text += ",Good,,in_stock,1,\n"                                      // 2
        text += ",,,in_stock,1,\n"                                          // 3 missing name
        text += ",\"  \",,in_stock,1,\n"                                    // 4 blank name
        text += ",A,purple,in_stock,1,\n"                                   // 5 unknown colour
        text += ",B,,in_stock,0,\n"                                         // 6 quantity 0
        text += ",C,,in_stock,3,true\n"                                     // 7 back-order flag in stock
        text += "not-a-uuid,D,,in_stock,1,\n"                               // 8 malformed id
        text += "0193a1f2-0000-7000-8000-000000000001,E,,in_stock,1,\n"     // 9
        text += "0193a1f2-0000-7000-8000-000000000001,F,,in_stock,1,\n"     // 10 duplicate in file
        text += ",G\"x,,in_stock,1,\n"                                      // 11 broken quoting
        text += ",H,,in_stock,1\n"                                          // 12 field count
        text += ",I,,out_of_stock,,\n"                                      // 13 no flag
        text += "\(existing),J,,in_stock,1,\n"                              // 14 exists
        text += ",K,,sold,1,\n"                                             // 15 unknown status
        var raw = Array(text.utf8)
        raw += Array(",".utf8) + [0xC3, 0x28] + Array(",,in_stock,1,\n".utf8) // 16 invalid UTF-8
        raw += Array(",\"two\nlines\",,in_stock,1,\n".utf8)                 // 17-18 control character
        try write(raw, to: file)
        let result = try database.stockroom("import", file)
        #expect(result.status == Failure.Code.dataError.rawValue, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: 14 bad rows; nothing was imported")
        let numbers = lines.dropFirst().map { Int($0.prefix(while: { $0 != ":" })) }
        #expect(numbers == [3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17], "\(lines)")
        let reasons = Dictionary(uniqueKeysWithValues: lines.dropFirst().map { line in
            (Int(line.prefix(while: { $0 != ":" }))!, String(line.drop(while: { $0 != ":" }).dropFirst(2)))
        })
        #expect(reasons[3] == "missing or blank name")
        #expect(reasons[4] == "missing or blank name")
        #expect(reasons[5]?.hasPrefix("unknown colour \"purple\"") == true)
        #expect(reasons[6]?.hasPrefix("quantity must be at least 1") == true)
        #expect(reasons[7]?.hasPrefix("a back-order flag on an in-stock row") == true)
        #expect(reasons[8]?.hasPrefix("malformed id \"not-a-uuid\"") == true)
        #expect(reasons[10] == "duplicate id 0193a1f2-0000-7000-8000-000000000001 (first on line 9)")
        #expect(reasons[11]?.contains("quote inside an unquoted field") == true)
        #expect(reasons[12]?.hasPrefix("expected 6 fields") == true)
        #expect(reasons[13]?.hasPrefix("out_of_stock needs is_on_back_order") == true)
        #expect(reasons[14] == "id \(existing) already exists (use --on-conflict skip or replace)")
        #expect(reasons[15]?.hasPrefix("unknown status \"sold\"") == true)
        #expect(reasons[16] == "invalid UTF-8 in name")
        #expect(reasons[17]?.contains("control character") == true, "\(lines)")
        #expect(try DatabaseSnapshot.of(database.path) == before)
    }

    @Test func moreThanTwentyBadRowsShowTwentyThenACount() throws {
        let database = CLIDatabase()
        let file = database.directory.path("many.jsonl")
        let lines = (1...25).map { "{\"name\":\"n\($0)\",\"status\":{\"case\":\"inStock\",\"quantity\":0}}" }
        try write(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
        let result = try database.stockroom("import", file)
        #expect(result.status == Failure.Code.dataError.rawValue)
        let errorLines = result.stderr.split(separator: "\n")
        #expect(errorLines.count == 22)
        #expect(errorLines.first == "error: 25 bad rows; nothing was imported")
        #expect(errorLines[1].hasPrefix("1: quantity must be at least 1"))
        #expect(errorLines[20].hasPrefix("20: "))
        #expect(errorLines.last == "… and 5 more")
        let count = database.exists ? try database.sqlite3("SELECT count(*) FROM items;") : "0"
        #expect(count == "0")
    }

    @Test func badJSONLinesAreListedWithTheirLines() throws {
        let database = CLIDatabase()
        let file = database.directory.path("bad.jsonl")
        let text = """
            {"name":"ok","status":{"case":"inStock","quantity":1}}
            {"name":"x","status":{"case":"inStock","quantity":2,"isOnBackOrder":true}}
            {"name":"y","color":"mauve","status":{"case":"outOfStock","isOnBackOrder":false}}
            {"status":{"case":"inStock","quantity":1}}
            {"name":"z","status":{"case":"inStock","quantity":1}

            {"id":"0193A1F2-0000-7000-8000-00000000000G","name":"w","status":{"case":"outOfStock","isOnBackOrder":true}}
            {"name":"v","status":{"case":"lost"}}

            """
        try write(Array(text.utf8), to: file)
        let result = try database.stockroom("import", file)
        #expect(result.status == Failure.Code.dataError.rawValue)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: 6 bad rows; nothing was imported")
        #expect(lines.dropFirst().map { $0.prefix(while: { $0 != ":" }) } == ["2", "3", "4", "5", "7", "8"], "\(lines)")
        #expect(lines[1].contains("back-order flag on an in-stock row"))
        #expect(lines[2].contains("unknown colour \"mauve\""))
        #expect(lines[3].contains("missing name"))
        #expect(lines[4].contains("invalid JSON"))
        #expect(lines[5].contains("malformed id"))
        #expect(lines[6].contains("unknown status case \"lost\""))
    }

    // MARK: Conflicts and dry runs

    @Test func conflictingIDsFailByDefaultAndCanBeSkippedOrReplaced() throws {
        let database = try seeded()
        let file = database.directory.path("again.jsonl")
        #expect(try database.stockroom("export", "-o", file).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[0] = lines[0].replacingOccurrences(of: "\"name\":\"Keyboard\"", with: "\"name\":\"Keyboard v2\"")
        lines.append("{\"name\":\"Brand new\",\"status\":{\"case\":\"inStock\",\"quantity\":4}}")
        try write(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
        let before = try DatabaseSnapshot.of(database.path)

        let failed = try database.stockroom("import", file)
        #expect(failed.status == Failure.Code.dataError.rawValue)
        #expect(failed.stderr.split(separator: "\n").count == 8, "\(failed)")
        #expect(failed.stderr.contains("1: id "))
        #expect(failed.stderr.contains(" already exists"))
        #expect(try DatabaseSnapshot.of(database.path) == before)

        let skipped = try database.stockroom("import", file, "--on-conflict", "skip", "--format-summary", "json")
        #expect(skipped.output.hasPrefix("{\"rows\":8,\"imported\":1,\"skipped\":7,\"replaced\":0,\"dryRun\":false,\"seconds\":"), "\(skipped)")
        #expect(try database.sqlite3("SELECT count(*) FROM items WHERE name = 'Keyboard';") == "1")

        // Only the renamed Keyboard changes; the other stored items already hold their rows and
        // are skipped (issue 20: a replace that changes nothing is not counted as replaced).
        let replaced = try database.stockroom("import", file, "--on-conflict", "replace", "--format-summary", "json")
        #expect(replaced.output.hasPrefix("{\"rows\":8,\"imported\":1,\"skipped\":6,\"replaced\":1,"), "\(replaced)")
        #expect(try database.sqlite3("SELECT count(*) FROM items WHERE name = 'Keyboard v2';") == "1")
        #expect(try database.sqlite3("SELECT count(*) FROM items;") == "9")
    }

    @Test func importedItemsGetTheirHistoryAndCheckPasses() throws {
        let database = try seeded()
        let file = database.directory.path("again.jsonl")
        #expect(try database.stockroom("export", "-o", file).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let keyboard = try #require(lines.firstIndex { $0.contains("\"name\":\"Keyboard\"") })
        let keyboardID = String(lines[keyboard].dropFirst(7).prefix(36))
        lines[keyboard] = lines[keyboard]
            .replacingOccurrences(of: "\"name\":\"Keyboard\"", with: "\"name\":\"Keyboard v2\"")
            .replacingOccurrences(of: "\"quantity\":100", with: "\"quantity\":90")
            .replacingOccurrences(of: #""updatedAt":"[^"]*""#, with: #""updatedAt":"2030-01-02T03:04:05.678Z""#, options: .regularExpression)
        lines.append(#"{"name":"Brand new","status":{"case":"inStock","quantity":4},"createdAt":"2029-05-06T07:08:09.010Z"}"#)
        try write(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
        let events = "SELECT count(*) FROM item_events;"

        // skip: the new item gets version 1, the stored ones nothing.
        #expect(try database.stockroom("import", file, "--on-conflict", "skip").status == 0)
        #expect(try database.sqlite3(events) == "8")
        #expect(try database.sqlite3("SELECT version, kind, recorded_at, to_name, to_status, to_quantity FROM item_events JOIN items ON id = item_id WHERE name = 'Brand new';")
            == "1|added|2029-05-06T07:08:09.010Z|Brand new|in_stock|4")

        // replace: one 'changed' event holding exactly what changed, none for unchanged items,
        // dated with the time of the import, not the row's updated_at (which the row keeps).
        let started = ImportExportTests.isoNow()
        let replacedRun = try database.stockroom("import", file, "--on-conflict", "replace")
        let ended = ImportExportTests.isoNow()
        #expect(replacedRun.status == 0 && replacedRun.output.contains("(1 replaced)") && replacedRun.output.contains("skipped: unchanged)"), "\(replacedRun)")
        #expect(try database.sqlite3(events) == "10")
        #expect(try database.sqlite3("SELECT version, kind, from_name, to_name, color_changed, from_status, from_quantity, to_status, to_quantity FROM item_events WHERE item_id = '\(keyboardID)' ORDER BY version;")
            .split(separator: "\n") == ["1|added||Keyboard||||in_stock|100",
                                        "2|changed|Keyboard|Keyboard v2|0|in_stock|100|in_stock|90"])
        #expect(try database.sqlite3("SELECT recorded_at FROM item_events WHERE item_id = '\(keyboardID)' AND version = 1;")
            == (try database.sqlite3("SELECT created_at FROM items WHERE id = '\(keyboardID)';")))
        let changedAt = try database.sqlite3("SELECT recorded_at FROM item_events WHERE item_id = '\(keyboardID)' AND version = 2;")
        #expect(started <= changedAt && changedAt <= ended, "\(started) <= \(changedAt) <= \(ended)")
        #expect(try database.sqlite3("SELECT updated_at FROM items WHERE id = '\(keyboardID)';") == "2030-01-02T03:04:05.678Z")
        let history = try database.stockroom("items", "history", keyboardID)
        #expect(history.status == 0 && history.stdout.contains("Renamed 'Keyboard' -> 'Keyboard v2'"), "\(history)")

        // `check` replays every history against its row.
        let check = try database.stockroom("check")
        #expect(check.status == 0, "\(check)")
    }

    /// A bulk load into a new file (statement journals in memory, BENCHMARKS.md issue 20) keeps
    /// the history exactly as the triggers write it, and leaves the guard on hand-written events.
    @Test func aBulkImportIntoANewFileRecordsOneAddedEventPerRowInFileOrder() throws {
        let database = CLIDatabase()
        let file = database.directory.path("bulk.csv")
        let count = 5_000
        var csv = "id,name,color,status,quantity,is_on_back_order,created_at,updated_at\n"
        for index in 1...count {
            let id = String(format: "%08x-0000-7000-8000-%012x", index, index)
            let status = index % 4 == 0 ? "out_of_stock,,\(index % 8 / 4)" : "in_stock,\(index % 50 + 1),"
            csv += "\(id),Item \(index),\(index % 2 == 0 ? "red" : ""),\(status),2026-11-23T12:00:00.000Z,2026-11-24T12:00:00.000Z\n"
        }
        try write(Array(csv.utf8), to: file)
        let result = try database.stockroom("import", file)
        #expect(result.status == 0, "\(result)")
        // Every event is the 'added' of its row, at positions 1…N in the file's (id) order.
        #expect(try database.sqlite3("""
            SELECT count(*), min(position), max(position) FROM item_events AS e JOIN items AS i ON i.id = e.item_id
            WHERE e.version = 1 AND e.kind = 'added' AND e.recorded_at = i.updated_at AND e.to_name = i.name
              AND e.to_color IS i.color AND e.to_status = i.status AND e.to_quantity IS i.quantity
              AND e.to_is_on_back_order IS i.is_on_back_order
              AND e.position = (SELECT count(*) FROM items AS earlier WHERE earlier.id <= i.id);
            """) == "\(count)|1|\(count)")
        #expect(try database.sqlite3("SELECT count(*) FROM item_events;") == "\(count)")
        #expect(try database.stockroom("check").status == 0)
        // The guard still refuses an event that does not follow on.
        let before = try DatabaseSnapshot.of(database.path)
        let refused = try Processes.sqlite3(database.path, "INSERT INTO item_events (item_id, version, kind, recorded_at, position) VALUES ('00000001-0000-7000-8000-000000000001', 3, 'deleted', '2030-01-01T00:00:00.000Z', \(count + 1));")
        #expect(refused.status != 0 && refused.stderr.contains("version must be the item's latest version + 1"), "\(refused)")
        #expect(try DatabaseSnapshot.of(database.path) == before)
    }

    @Test func anIDWhoseItemWasDeletedIsABadRow() throws {
        let database = try seeded()
        let file = database.directory.path("items.csv")
        #expect(try database.stockroom("export", "--format", "csv", "-o", file).status == 0)
        let id = String(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n")[1].prefix(36))
        #expect(try database.stockroom("items", "delete", id).status == 0)
        let before = try DatabaseSnapshot.of(database.path)
        let result = try database.stockroom("import", file, "--on-conflict", "skip")
        #expect(result.status == Failure.Code.dataError.rawValue, "\(result)")
        #expect(result.stderr.contains("2: id \(id) belonged to a deleted item"), "\(result)")
        #expect(try DatabaseSnapshot.of(database.path) == before)

        // With every item deleted the table is empty but the history is not: still refused.
        #expect(try database.stockroom("items", "delete", String(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n")[2].prefix(36))).status == 0)
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n").dropFirst(3) {
            #expect(try database.stockroom("items", "delete", String(line.prefix(36))).status == 0)
        }
        #expect(try database.sqlite3("SELECT count(*) FROM items;") == "0")
        let emptied = try DatabaseSnapshot.of(database.path)
        let again = try database.stockroom("import", file)
        #expect(again.status == Failure.Code.dataError.rawValue, "\(again)")
        // Found when its history is written, which stops the writing: the first such row.
        #expect(again.stderr.contains("2: id \(id) belonged to a deleted item"), "\(again)")
        #expect(try DatabaseSnapshot.of(database.path) == emptied)
    }

    @Test func aDryRunWritesNothingAndDoesNotCreateTheDatabase() throws {
        let source = try seeded()
        let file = source.directory.path("items.csv")
        #expect(try source.stockroom("export", "--format", "csv", "-o", file).status == 0)

        let fresh = CLIDatabase()
        let dry = try fresh.stockroom("import", file, "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.output == "dry run: 7 rows are valid; would import 7 items; nothing was written")
        #expect(!fresh.exists)

        let before = try source.contents()
        let conflicting = try source.stockroom("import", file, "--dry-run")
        #expect(conflicting.status == Failure.Code.dataError.rawValue)
        #expect(conflicting.stderr.hasPrefix("error: 7 bad rows; nothing was imported\n"))
        let skipping = try source.stockroom("import", file, "--dry-run", "--on-conflict", "skip", "--format-summary", "json")
        #expect(skipping.output.hasPrefix("{\"rows\":7,\"imported\":0,\"skipped\":7,\"replaced\":0,\"dryRun\":true,"))
        #expect(try source.contents() == before)
    }

    @Test func rowsWithoutIDsGetNewOnesAndStandardInputWorks() throws {
        let database = CLIDatabase()
        // 1/0 as exports write the flag; true/false (any case) as older exports wrote it.
        let csv = "name,status,quantity,is_on_back_order,color\r\nWidget,in_stock,3,,green\r\nGadget,out_of_stock,,TRUE,\r\nGizmo,out_of_stock,,0,\r\nGasket,out_of_stock,,1,\r\n"
        let result = try Processes.stockroom(["import", "-", "--format", "csv"], environment: ["STOCKROOM_DB": database.path], stdin: csv)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let rows = try database.sqlite3("SELECT name, ifnull(color,'-'), status, ifnull(quantity,'-'), ifnull(is_on_back_order,'-'), created_at = updated_at FROM items ORDER BY name;")
        #expect(rows.split(separator: "\n") == ["Gadget|-|out_of_stock|-|1|1", "Gasket|-|out_of_stock|-|1|1", "Gizmo|-|out_of_stock|-|0|1", "Widget|green|in_stock|3|-|1"])
        #expect(try database.sqlite3("SELECT count(*) FROM items WHERE substr(id, 15, 1) = '7';") == "4")
        #expect(try database.sqlite3("SELECT count(*) FROM item_events JOIN items ON id = item_id AND version = 1 AND kind = 'added' AND recorded_at = updated_at;") == "4")
        #expect(try database.stockroom("check").status == 0)
    }

    @Test func usageErrors() throws {
        let database = CLIDatabase()
        expectFailure(try database.stockroom("import", "missing.csv"), code: .notFound)
        expectFailure(try database.stockroom("import", "x.csv", "--format", "jsonl"), code: .usage)
        expectFailure(try database.stockroom("import", "x.json"), code: .usage)
        expectFailure(try database.stockroom("import", "-", "--on-conflict", "merge"), code: .usage)
        expectFailure(try database.stockroom("export", "--format", "xml"), code: .usage)
        let header = database.directory.path("header.csv")
        try write(Array("name,status,price\nA,in_stock\n".utf8), to: header)
        let result = try database.stockroom("import", header)
        #expect(result.status == Failure.Code.dataError.rawValue)
        #expect(result.stderr.contains("1: unknown column 'price'"))
    }

    /// The current time in the format of the schema (`2026-11-22T15:04:05.123Z`), to compare
    /// with the times the database records.
    static func isoNow() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
