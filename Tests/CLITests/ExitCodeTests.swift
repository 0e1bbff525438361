import Foundation
import StockroomTestSupport
import Testing

/// Every documented exit code, each with a one-line `error:` message and an untouched database.
@Suite struct ExitCodeTests {
    let directory = TemporaryDirectory()
    var database: String { directory.path("inventory.sqlite") }

    func stockroom(_ arguments: [String]) throws -> ProcessResult {
        try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": database])
    }

    /// A database holding one item and one draft; returns their ids.
    func seeded() throws -> (item: String, draft: String) {
        let item = try stockroom(["items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "100"])
        #expect(item.status == 0, "\(item)")
        let draft = try stockroom(["draft", "add", "--name", "Mouse"])
        #expect(draft.status == 0, "\(draft)")
        return (item.output, draft.output)
    }

    /// Runs a command that must fail, and checks the code, the single stderr line and that the
    /// database did not change.
    func expectFailure(_ arguments: [String], code: Int32, mentioning text: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try DatabaseSnapshot.of(database)
        let result = try stockroom(arguments)
        #expect(result.status == code, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(arguments): \(result)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("error: "), "\(arguments): \(result)", sourceLocation: sourceLocation)
        if let text {
            #expect(result.stderr.contains(text), "\(arguments): \(result)", sourceLocation: sourceLocation)
        }
        #expect(try DatabaseSnapshot.of(database) == before, "\(arguments) changed the database", sourceLocation: sourceLocation)
    }

    @Test func badCommandLinesExit64() throws {
        let (item, draft) = try seeded()
        try expectFailure(["items", "frobnicate"], code: 64)
        try expectFailure(["items", "add", "--name", "X", "--bogus"], code: 64, mentioning: "--bogus")
        try expectFailure(["items", "add"], code: 64, mentioning: "--name")
        try expectFailure(["items", "add", "--name", "   "], code: 64, mentioning: "blank")
        try expectFailure(["items", "add", "--name", "X", "--quantity", "0"], code: 64, mentioning: "at least 1")
        try expectFailure(["items", "add", "--name", "X", "--quantity", "many"], code: 64)
        try expectFailure(["items", "add", "--name", "X", "--quantity", "-3"], code: 64, mentioning: "at least 1")
        try expectFailure(["items", "add", "--name", "X", "--quantity", "3", "--out-of-stock"], code: 64, mentioning: "cannot be used together")
        try expectFailure(["items", "add", "--name", "X", "--back-order"], code: 64, mentioning: "--out-of-stock")
        try expectFailure(["items", "add", "--name", "X", "--color", "purple"], code: 64, mentioning: "purple")
        try expectFailure(["items", "list", "--in-stock", "--out-of-stock"], code: 64)
        try expectFailure(["items", "list", "--limit", "-1"], code: 64)
        try expectFailure(["items", "list", "--format", "xml"], code: 64)
        try expectFailure(["items", "update", item], code: 64, mentioning: "nothing to change")
        try expectFailure(["items", "update", item, "--color", "red", "--no-color"], code: 64)
        try expectFailure(["items", "update", item, "--name", ""], code: 64)
        try expectFailure(["items", "show", "xyz!"], code: 64, mentioning: "not a valid item id")
        try expectFailure(["items", "show", "012"], code: 64, mentioning: "at least 4")
        try expectFailure(["draft", "save", "not-an-id"], code: 64)
        try expectFailure(["draft", "edit", draft], code: 64, mentioning: "nothing to change")
        try expectFailure(["--busy-timeout", "-1", "items", "list"], code: 64)
    }

    @Test func anAmbiguousIdPrefixExits64() throws {
        _ = try seeded()
        // Two ids chosen to share "abcd": ids made by `items add` share a prefix only while the
        // clock's high bits stay the same, which made this test depend on the date.
        for (id, name) in [("abcd0000-0000-7000-8000-000000000001", "Charger"), ("abcd0000-0000-7000-8000-000000000002", "Cable")] {
            let added = try Processes.sqlite3(database, """
                INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
                VALUES ('\(id)', '\(name)', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
                """)
            #expect(added.status == 0, "\(added)")
        }
        try expectFailure(["items", "show", "ABCD"], code: 64, mentioning: "more than one")
    }

    @Test func dataThatBreaksARuleExits65() throws {
        let blank = try stockroom(["draft", "add"])
        #expect(blank.status == 0)
        try expectFailure(["draft", "save", blank.output], code: 65, mentioning: "blank")
        #expect(try stockroom(["draft", "show", blank.output]).status == 0)

        // A row that does not decode, written with CHECKs off as only a hand edit could.
        let (item, _) = try seeded()
        try Processes.sqlite3(database, "PRAGMA ignore_check_constraints = ON; UPDATE items SET quantity = 0 WHERE id = '\(item)';")
        try expectFailure(["items", "show", item], code: 65, mentioning: "row \(item) of table items does not decode")
        try expectFailure(["items", "list"], code: 65, mentioning: item)
    }

    @Test func missingItemsAndDraftsExit66() throws {
        _ = try seeded()
        let missing = "00000000-0000-7000-8000-000000000000"
        try expectFailure(["items", "show", missing], code: 66, mentioning: "no item")
        try expectFailure(["items", "update", missing, "--quantity", "2"], code: 66)
        try expectFailure(["items", "delete", "ffff"], code: 66)
        try expectFailure(["draft", "duplicate", missing], code: 66, mentioning: "no item")
        try expectFailure(["draft", "show", missing], code: 66, mentioning: "no draft")
        try expectFailure(["draft", "save", missing], code: 66)
        try expectFailure(["draft", "cancel", missing], code: 66)
        try expectFailure(["draft", "edit", missing, "--name", "X"], code: 66)
    }

    @Test func filesThatAreNotUsableDatabasesExit74() throws {
        let text = directory.path("notes.txt")
        try "shopping list: milk, eggs\n".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try Processes.stockroom(["items", "list", "--db", text])
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr == "error: the file is not a SQLite database (SQLITE_NOTADB)\n")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "shopping list: milk, eggs\n")

        let missingFolder = try Processes.stockroom(["items", "add", "--name", "X", "--db", directory.path("no/such/folder.sqlite")])
        #expect(missingFolder.status == 74, "\(missingFolder)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("no")))

        let directoryAsFile = try Processes.stockroom(["items", "list", "--db", directory.url.path])
        #expect(directoryAsFile.status == 74, "\(directoryAsFile)")
    }

    @Test func aCorruptFileExits74() throws {
        _ = try seeded()
        // Overwrite the middle of the file, past the header, with garbage.
        try Processes.sqlite3(database, "PRAGMA wal_checkpoint(TRUNCATE);")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try handle.close()
        let result = try stockroom(["items", "list"])
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
    }

    @Test func aDatabaseHeldBusyPastTheTimeoutExits75() throws {
        _ = try seeded()
        let holder = try LockHolder(database: database)
        defer { holder.release() }
        let before = try stockroom(["items", "list", "--format", "csv"]).stdout
        let result = try stockroom(["items", "add", "--name", "Blocked", "--busy-timeout", "0.2"])
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.contains("locked by another process"), "\(result)")
        holder.release()
        #expect(try stockroom(["items", "list", "--format", "csv"]).stdout == before)
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
