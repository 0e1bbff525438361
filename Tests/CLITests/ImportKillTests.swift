import Foundation
import StockroomTestSupport
import Testing

/// A real `stockroom import` killed with SIGKILL in the middle of its transaction leaves the
/// database exactly as it was.
@Suite struct ImportKillTests {
    /// CSV rows `from..<to` with fresh ids, in id order.
    func rows(_ range: Range<Int>) -> Data {
        var text = ""
        for index in range {
            let id = String(format: "0193a1f2-%04x-7000-8000-%012x", index >> 16 & 0xFFFF, index)
            text += "\(id),Generated item \(index) with a longish name to fill pages,blue,in_stock,\(index % 50 + 1),,2026-11-23T10:00:00.000Z,2026-11-23T10:00:00.000Z\r\n"
        }
        return Data(text.utf8)
    }

    func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Starts an import reading a pipe, feeds it rows until the import has written uncommitted
    /// pages to the WAL (the file grows: a real event, no timing), kills it, and checks the file.
    func killMidImport(seedItems: Int) throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("migrate", "up").status == 0)
        for index in 0..<seedItems {
            #expect(try database.stockroom("items", "add", "--name", "Seed \(index)").status == 0)
        }
        let before = try database.contents()
        let beforeDump = try DatabaseSnapshot.of(database.path)
        #expect(fileSize(database.path + "-wal") == 0)

        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Processes.stockroomPath)
        process.arguments = ["import", "-", "--format", "csv", "--db", database.path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()

        try input.fileHandleForWriting.write(contentsOf: Data("id,name,color,status,quantity,is_on_back_order,created_at,updated_at\r\n".utf8))
        var written = 0
        let chunk = 2_000
        // The pipe holds 64 KiB: once a write returns, the import has read all but that much.
        while fileSize(database.path + "-wal") < 512 * 1024 && written < 400_000 {
            try input.fileHandleForWriting.write(contentsOf: rows(written..<(written + chunk)))
            written += chunk
        }
        #expect(fileSize(database.path + "-wal") >= 512 * 1024, "the import never spilled to the WAL")
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        #expect(try database.contents() == before)
        #expect(try DatabaseSnapshot.of(database.path) == beforeDump)
        #expect(try database.sqlite3("PRAGMA integrity_check;") == "ok")
        #expect(try database.sqlite3("SELECT count(*) FROM items;") == "\(seedItems)")
        // The indexes dropped for a bulk load into an empty table are back, untouched.
        #expect(try database.sqlite3("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL;") == "3")
    }

    @Test func killedWhileLoadingAnEmptyDatabaseLeavesItAsItWas() throws {
        try killMidImport(seedItems: 0)
    }

    @Test func killedWhileAddingToADatabaseLeavesItAsItWas() throws {
        try killMidImport(seedItems: 3)
    }

    @Test func progressShowsOnATerminal() throws {
        let database = CLIDatabase()
        let file = database.directory.path("items.csv")
        var data = Data("id,name,color,status,quantity,is_on_back_order,created_at,updated_at\r\n".utf8)
        data.append(rows(0..<40_000))
        try data.write(to: URL(fileURLWithPath: file))
        // script(1) runs the command on a real pseudo-terminal, stderr included.
        let command = "'\(Processes.stockroomPath)' import '\(file)' --db '\(database.path)'"
        let result = try Processes.run("/usr/bin/script", ["-qefc", command, "/dev/null"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\rimport: 16384 rows, "), "\(result)")
        #expect(result.stdout.contains("% done") || result.stdout.contains("s left"), "\(result)")
        #expect(result.stdout.contains("imported 40000 items in "))
    }

    @Test func progressIsSilentWhenStderrIsNotATerminal() throws {
        let database = CLIDatabase()
        let file = database.directory.path("items.csv")
        var data = Data("id,name,color,status,quantity,is_on_back_order,created_at,updated_at\r\n".utf8)
        data.append(rows(0..<40_000))
        try data.write(to: URL(fileURLWithPath: file))
        let result = try database.stockroom("import", file)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.output.hasPrefix("imported 40000 items in "))
    }
}
