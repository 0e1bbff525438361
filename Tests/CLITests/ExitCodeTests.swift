import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// Every documented exit code, each with a one-line `error:` message and an untouched database.
@Suite struct ExitCodeTests {
    let database = CLIDatabase()

    /// A database holding one item and one draft; returns their ids.
    func seeded() throws -> (item: String, draft: String) {
        let item = try database.stockroom("items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "100")
        #expect(item.status == 0, "\(item)")
        let draft = try database.stockroom("draft", "add", "--name", "Mouse")
        #expect(draft.status == 0, "\(draft)")
        return (item.output, draft.output)
    }

    @Test func badCommandLinesExit64() throws {
        let (item, draft) = try seeded()
        try database.expectRefusal("items", "frobnicate", code: .usage)
        try database.expectRefusal("items", "add", "--name", "X", "--bogus", code: .usage, mentioning: "--bogus")
        try database.expectRefusal("items", "add", code: .usage, mentioning: "--name")
        try database.expectRefusal("items", "add", "--name", "   ", code: .usage, mentioning: "blank")
        try database.expectRefusal("items", "add", "--name", "X", "--quantity", "0", code: .usage, mentioning: "at least 1")
        try database.expectRefusal("items", "add", "--name", "X", "--quantity", "many", code: .usage)
        try database.expectRefusal("items", "add", "--name", "X", "--quantity", "-3", code: .usage, mentioning: "at least 1")
        try database.expectRefusal("items", "add", "--name", "X", "--quantity", "3", "--out-of-stock", code: .usage, mentioning: "cannot be used together")
        try database.expectRefusal("items", "add", "--name", "X", "--back-order", code: .usage, mentioning: "--out-of-stock")
        try database.expectRefusal("items", "add", "--name", "X", "--color", "purple", code: .usage, mentioning: "purple")
        try database.expectRefusal("items", "list", "--in-stock", "--out-of-stock", code: .usage)
        try database.expectRefusal("items", "list", "--limit", "-1", code: .usage)
        try database.expectRefusal("items", "list", "--format", "xml", code: .usage)
        try database.expectRefusal("items", "update", item, code: .usage, mentioning: "nothing to change")
        try database.expectRefusal("items", "update", item, "--color", "red", "--no-color", code: .usage)
        try database.expectRefusal("items", "update", item, "--name", "", code: .usage)
        try database.expectRefusal("items", "show", "xyz!", code: .usage, mentioning: "not a valid item id")
        try database.expectRefusal("items", "show", "012", code: .usage, mentioning: "at least 4")
        try database.expectRefusal("draft", "save", "not-an-id", code: .usage)
        try database.expectRefusal("draft", "edit", draft, code: .usage, mentioning: "nothing to change")
        try database.expectRefusal("--busy-timeout", "-1", "items", "list", code: .usage)
    }

    @Test func anAmbiguousIdPrefixExits64() throws {
        _ = try seeded()
        // Two ids chosen to share "abcd": ids made by `items add` share a prefix only while the
        // clock's high bits stay the same, which made this test depend on the date.
        for (id, name) in [("abcd0000-0000-7000-8000-000000000001", "Charger"), ("abcd0000-0000-7000-8000-000000000002", "Cable")] {
            let added = try Processes.sqlite3(database.path, """
                INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
                VALUES ('\(id)', '\(name)', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
                """)
            #expect(added.status == 0, "\(added)")
        }
        try database.expectRefusal("items", "show", "ABCD", code: .usage, mentioning: "more than one")
    }

    @Test func dataThatBreaksARuleExits65() throws {
        let blank = try database.stockroom(arguments: ["draft", "add"])
        #expect(blank.status == 0)
        try database.expectRefusal("draft", "save", blank.output, code: .dataError, mentioning: "blank")
        #expect(try database.stockroom(arguments: ["draft", "show", blank.output]).status == 0)

        // A row that does not decode, written with CHECKs off as only a hand edit could.
        let (item, _) = try seeded()
        try Processes.sqlite3(database.path, "PRAGMA ignore_check_constraints = ON; UPDATE items SET quantity = 0 WHERE id = '\(item)';")
        try database.expectRefusal("items", "show", item, code: .dataError, mentioning: "row \(item) of table items does not decode")
        try database.expectRefusal("items", "list", code: .dataError, mentioning: item)
    }

    @Test func missingItemsAndDraftsExit66() throws {
        _ = try seeded()
        let missing = "00000000-0000-7000-8000-000000000000"
        try database.expectRefusal("items", "show", missing, code: .notFound, mentioning: "no item")
        try database.expectRefusal("items", "update", missing, "--quantity", "2", code: .notFound)
        try database.expectRefusal("items", "delete", "ffff", code: .notFound)
        try database.expectRefusal("draft", "duplicate", missing, code: .notFound, mentioning: "no item")
        try database.expectRefusal("draft", "show", missing, code: .notFound, mentioning: "no draft")
        try database.expectRefusal("draft", "save", missing, code: .notFound)
        try database.expectRefusal("draft", "cancel", missing, code: .notFound)
        try database.expectRefusal("draft", "edit", missing, "--name", "X", code: .notFound)
    }

    @Test func filesThatAreNotUsableDatabasesExit74() throws {
        let text = database.directory.path("notes.txt")
        try "shopping list: milk, eggs\n".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try Processes.stockroom(["items", "list", "--db", text])
        expectFailure(result, code: .ioError, message: "the file is not a SQLite database (SQLITE_NOTADB)")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "shopping list: milk, eggs\n")

        let missingFolder = try Processes.stockroom(["items", "add", "--name", "X", "--db", database.directory.path("no/such/folder.sqlite")])
        expectFailure(missingFolder, code: .ioError)
        #expect(!FileManager.default.fileExists(atPath: database.directory.path("no")))

        let directoryAsFile = try Processes.stockroom(["items", "list", "--db", database.directory.url.path])
        expectFailure(directoryAsFile, code: .ioError)
    }

    @Test func aCorruptFileExits74() throws {
        _ = try seeded()
        // Overwrite the middle of the file, past the header, with garbage.
        try Processes.sqlite3(database.path, "PRAGMA wal_checkpoint(TRUNCATE);")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database.path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try handle.close()
        let result = try database.stockroom(arguments: ["items", "list"])
        expectFailure(result, code: .ioError)
    }

    @Test func aDatabaseHeldBusyPastTheTimeoutExits75() throws {
        _ = try seeded()
        let holder = try LockHolder(database: database.path)
        defer { holder.release() }
        let before = try database.stockroom(arguments: ["items", "list", "--format", "csv"]).stdout
        let result = try database.stockroom(arguments: ["items", "add", "--name", "Blocked", "--busy-timeout", "0.2"])
        expectFailure(result, code: .busy, mentioning: "locked by another process")
        holder.release()
        #expect(try database.stockroom(arguments: ["items", "list", "--format", "csv"]).stdout == before)
    }
}

/// A `sqlite3` shell that holds the write lock until released.
final class LockHolder {
    private let process = Process()
    private let input = Pipe()
    private var released = false

    init(database: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        // Wait for the shell to say it holds the lock: the real event, not a delay.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
            seen.append(chunk)
        }
    }

    func release() {
        guard !released else { return }
        released = true
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
