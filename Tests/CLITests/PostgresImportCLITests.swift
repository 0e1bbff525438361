import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `import` on a PostgreSQL server: the real binary against a throwaway server, compared with
/// the same imports into a SQLite file.
@Suite struct PostgresImportCLITests {
    static let first = """
        {"id":"00000000-0000-7000-8000-00000000000a","name":"Anvil","color":"red","status":{"case":"inStock","quantity":3},"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-02T00:00:00.000Z"}
        {"id":"00000000-0000-7000-8000-00000000000b","name":"Bucket, \\"big\\" é","status":{"case":"outOfStock","isOnBackOrder":true},"createdAt":"2026-01-03T00:00:00.000Z","updatedAt":"2026-01-03T00:00:00.000Z"}
        {"id":"00000000-0000-7000-8000-00000000000c","name":"Chisel","status":{"case":"outOfStock","isOnBackOrder":false},"createdAt":"2026-01-04T00:00:00.000Z"}

        """
    /// B renamed and back in stock, C unchanged, D new.
    static let second = """
        {"id":"00000000-0000-7000-8000-00000000000b","name":"Bucket v2","color":"blue","status":{"case":"inStock","quantity":9},"updatedAt":"2026-03-01T00:00:00.000Z"}
        {"id":"00000000-0000-7000-8000-00000000000c","name":"Chisel","status":{"case":"outOfStock","isOnBackOrder":false},"createdAt":"2026-01-04T00:00:00.000Z"}
        {"id":"00000000-0000-7000-8000-00000000000d","name":"Drill","status":{"case":"inStock","quantity":1},"createdAt":"2026-02-01T00:00:00.000Z","updatedAt":"2026-02-02T00:00:00.000Z"}

        """
    static let ids = ["a", "b", "c", "d"].map { "00000000-0000-7000-8000-00000000000\($0)" }

    /// The summary without its time.
    static func summary(_ result: ProcessResult) -> String {
        result.stdout.replacingOccurrences(of: #""seconds":"?[0-9.]+"?"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #" in [0-9.]+ s"#, with: "", options: .regularExpression)
    }

    /// What a user sees of the inventory: the list, every item's history, and `check`. Events
    /// dated by the database at or after `since` (a replace's 'changed': the time of the import,
    /// which differs from run to run) show as `<import time>`.
    static func view(_ db: String, since: String = "9999") throws -> [String] {
        var seen = [try Processes.stockroom(["items", "list", "--format", "json", "--db", db]).output]
        for id in ids {
            let history = try Processes.stockroom(["items", "history", id, "--db", db]).output
            let lines = history.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                guard let range = line.range(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"#, options: .regularExpression),
                      String(line[range]) >= since else { return String(line) }
                return line.replacingCharacters(in: range, with: "<import time>")
            }
            seen.append(lines.joined(separator: "\n"))
        }
        let check = try Processes.stockroom(["check", "--db", db])
        #expect(check.status == 0, "\(check)")
        seen.append(check.output.replacingOccurrences(of: db, with: "<db>"))
        return seen
    }

    static func write(_ text: String, in folder: TemporaryDirectory, _ name: String) throws -> String {
        let path = folder.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theSameImportsGiveTheSameItemsHistoryAndSummariesOnAFileAndAServer() throws {
        let folder = TemporaryDirectory()
        let first = try Self.write(Self.first, in: folder, "first.jsonl")
        let second = try Self.write(Self.second, in: folder, "second.jsonl")
        let file = CLIDatabase()
        let server = try PostgresScratchSchema()
        let started = ImportExportTests.isoNow()
        let steps: [[String]] = [
            ["import", first, "--format-summary", "json"],
            ["import", "--dry-run", second, "--on-conflict", "skip"],
            ["import", second, "--on-conflict", "skip"],
            ["import", second, "--on-conflict", "replace", "--format-summary", "json"],
            ["import", second, "--on-conflict", "replace"],
        ]
        for step in steps {
            let onFile = try Processes.stockroom(step + ["--db", file.path])
            let onServer = try Processes.stockroom(step + ["--db", server.uri])
            #expect(onFile.status == 0, "\(step): \(onFile)")
            #expect(onServer.status == 0, "\(step): \(onServer)")
            #expect(onServer.stderr.isEmpty, "\(onServer)")
            #expect(Self.summary(onServer) == Self.summary(onFile), "\(step)")
        }
        // Every row of `second` is stored as it is by now: nothing to replace (issue 20).
        #expect(Self.summary(try Processes.stockroom(steps[3] + ["--db", server.uri]))
            == "{\"rows\":3,\"imported\":0,\"skipped\":3,\"replaced\":0,\"dryRun\":false,}\n")
        let seen = try Self.view(server.uri, since: started)
        let onFile = try Self.view(file.path, since: started)
        for (server, file) in zip(seen, onFile) { #expect(server == file) }
        #expect(seen[2].contains("Renamed"), "B's replacement is recorded: \(seen[2])")
        #expect(seen[0].contains("Drill"))
    }

    @Test func standardInputIsImportedIntoAServer() throws {
        let server = try PostgresScratchSchema()
        let result = try Processes.stockroom(["import", "-", "--db", server.uri], stdin: Self.first)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("imported 3 items in "), "\(result)")
        let count = try server.psql("SELECT count(*) FROM item_events WHERE version = 1 AND kind = 'added'")
        #expect(count.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "3" }, "\(count)")
    }

    @Test func aBadRowAConflictOrADeletedItemsIDRefusesEverythingAndWritesNothingOnAServer() throws {
        let folder = TemporaryDirectory()
        let first = try Self.write(Self.first, in: folder, "first.jsonl")
        let file = CLIDatabase()
        let server = try PostgresScratchSchema()
        for db in [file.path, server.uri] {
            #expect(try Processes.stockroom(["import", first, "--db", db]).status == 0)
            #expect(try Processes.stockroom(["items", "delete", Self.ids[0], "--db", db]).status == 0)
        }
        let bad = try Self.write(Self.second + """
            {"name":"Nail","status":{"case":"inStock","quantity":0}}
            {"id":"00000000-0000-7000-8000-00000000000e","name":"Ok","status":{"case":"inStock","quantity":2}}

            """, in: folder, "bad.jsonl")
        let conflicting = try Self.write(Self.second, in: folder, "conflicting.jsonl")
        let cases: [[String]] = [
            ["import", bad, "--on-conflict", "skip"],
            ["import", conflicting],
            ["import", first, "--on-conflict", "skip"],
            ["import", bad, "--on-conflict", "replace"],
        ]
        let before = try Self.view(server.uri)
        let events = "SELECT count(*) FROM item_events"
        let eventsBefore = try server.psql(events).stdout
        for arguments in cases {
            let onFile = try Processes.stockroom(arguments + ["--db", file.path])
            let onServer = try Processes.stockroom(arguments + ["--db", server.uri])
            #expect(onServer.status == Failure.Code.dataError.rawValue, "\(arguments): \(onServer)")
            #expect(onServer.stderr.hasPrefix("error: "), "\(onServer)")
            #expect(onServer.stderr == onFile.stderr, "\(arguments)")
            #expect(onServer.stdout.isEmpty)
            #expect(try Self.view(server.uri) == before, "\(arguments) wrote something")
            #expect(try server.psql(events).stdout == eventsBefore)
        }
    }

    @Test func aDryRunOnAServerWithoutTablesCreatesNothing() throws {
        let folder = TemporaryDirectory()
        let first = try Self.write(Self.first, in: folder, "first.jsonl")
        let server = try PostgresScratchSchema()
        let result = try Processes.stockroom(["import", "--dry-run", first, "--db", server.uri])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "dry run: 3 rows are valid; would import 3 items; nothing was written\n")
        let tables = try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(server.name)'")
        #expect(tables.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "0" }, "\(tables)")
    }

    /// A replace writes, in one set-based statement on a server, each added item's 'added' and
    /// each replaced item's 'changed' in the order of the rows, as a file's row-by-row import
    /// does; a name that differs from the stored one only in its bytes (the same text in
    /// Unicode's decomposed form) changes nothing, as Swift compares names, on both engines.
    @Test func aReplaceRecordsItsEventsInLineOrderAndSkipsCanonicallyEqualNamesAsOnAFile() throws {
        let folder = TemporaryDirectory()
        func row(_ letter: String, _ name: String, quantity: Int) -> String {
            #"{"id":"00000000-0000-7000-8000-00000000000\#(letter)","name":"\#(name)","status":{"case":"inStock","quantity":\#(quantity)},"createdAt":"2026-01-01T00:00:00.000Z"}"#
        }
        let first = try Self.write([row("a", "Anvil", quantity: 1), row("b", "Bucket", quantity: 1),
                                    row("c", #"Caf\u00e9"#, quantity: 1)].joined(separator: "\n") + "\n", in: folder, "first.jsonl")
        let second = try Self.write([row("d", "Drill", quantity: 1), row("b", "Bucket", quantity: 2),
                                     row("c", #"Cafe\u0301"#, quantity: 1), row("e", "Easel", quantity: 1),
                                     row("a", "Anvil", quantity: 2)].joined(separator: "\n") + "\n", in: folder, "second.jsonl")
        let file = CLIDatabase()
        let server = try PostgresScratchSchema()
        for arguments in [["import", first], ["import", second, "--on-conflict", "replace", "--format-summary", "json"]] {
            let onFile = try Processes.stockroom(arguments + ["--db", file.path])
            let onServer = try Processes.stockroom(arguments + ["--db", server.uri])
            #expect(onServer.status == 0, "\(onServer)")
            #expect(Self.summary(onServer) == Self.summary(onFile), "\(arguments)")
        }
        let order = "SELECT position, substr(item_id, 36), version, kind FROM item_events ORDER BY position"
        let onServer = try server.psql(order).lines
        #expect(onServer == ["1|a|1|added", "2|b|1|added", "3|c|1|added",
                             "4|d|1|added", "5|b|2|changed", "6|e|1|added", "7|a|2|changed"], "\(onServer)")
        #expect(onServer == (try file.sqlite3(order)).split(separator: "\n").map(String.init))
    }

    /// Bad rows the reader finds (syntax, duplicates) and ids the server refuses (stored, a
    /// deleted item's) are reported together in line order, the first twenty and a count, as on
    /// a file, and nothing is written.
    @Test func readerAndServerProblemsAreListedTogetherInLineOrderAsOnAFile() throws {
        let folder = TemporaryDirectory()
        let first = try Self.write(Self.first, in: folder, "first.jsonl")
        let file = CLIDatabase()
        let server = try PostgresScratchSchema()
        for db in [file.path, server.uri] {
            #expect(try Processes.stockroom(["import", first, "--db", db]).status == 0)
            #expect(try Processes.stockroom(["items", "delete", Self.ids[0], "--db", db]).status == 0)
        }
        var lines: [String] = []
        for index in 0..<30 {
            switch index % 5 {
            case 0: lines.append(#"{"id":"\#(Self.ids[1])","name":"Stored","status":{"case":"inStock","quantity":1}}"#)
            case 1: lines.append(#"{"name":"Broken","status":"#)
            case 2: lines.append(#"{"id":"\#(Self.ids[0])","name":"Deleted","status":{"case":"inStock","quantity":1}}"#)
            case 3: lines.append(#"{"name":"Fine \#(index)","status":{"case":"inStock","quantity":1}}"#)
            default: lines.append(#"{"id":"\#(Self.ids[2])","name":"Stored too","status":{"case":"inStock","quantity":1}}"#)
            }
        }
        let bad = try Self.write(lines.joined(separator: "\n") + "\n", in: folder, "bad.jsonl")
        let events = try server.psql("SELECT count(*) FROM item_events").output
        for policy in ["fail", "skip", "replace"] {
            let onFile = try Processes.stockroom(["import", bad, "--on-conflict", policy, "--db", file.path])
            let onServer = try Processes.stockroom(["import", bad, "--on-conflict", policy, "--db", server.uri])
            #expect(onServer.status == Failure.Code.dataError.rawValue, "\(onServer)")
            #expect(onServer.stderr == onFile.stderr, "\(policy)")
            #expect(onServer.stderr.contains("… and "), "\(onServer.stderr)")
            #expect(try server.psql("SELECT count(*) FROM item_events").output == events)
        }
    }
}
