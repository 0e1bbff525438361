import Foundation
import StockroomTestSupport
import StockroomMigrations
import Testing

/// Several real `stockroom` processes on one file: no "database is locked", no lost write, and
/// a process killed at any moment leaves a sound database with every acknowledged write.
@Suite struct ConcurrencyTests {
    let directory = TemporaryDirectory()
    var database: String { directory.path("shared.sqlite") }

    /// A bash loop that saves `count` drafts, printing each new item id once `draft save`
    /// reported success; it stops at the first failure.
    func saveLoop(worker: Int, count: Int) -> String {
        """
        set -u
        for i in $(seq 1 \(count)); do
            draft=$("$STOCKROOM" draft add --name "worker \(worker) item $i" --quantity "$i") || exit 10
            item=$("$STOCKROOM" draft save "$draft") || exit 11
            echo "$item"
        done
        """
    }

    @Test func fourProcessesSavingFiftyDraftsEachLoseNothing() throws {
        let workers = 4, saves = 50
        // Create and migrate the file first, like a user's first command.
        #expect(try Processes.stockroom(["migrate", "up", "--db", database]).status == 0)
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let result = Result {
                try Processes.run("/bin/bash", ["-c", saveLoop(worker: worker, count: saves)],
                                  environment: ["STOCKROOM": Processes.stockroomPath, "STOCKROOM_DB": database])
            }
            results.append(result)
        }
        var acknowledged: [String] = []
        for result in results.all {
            let finished = try result.get()
            #expect(finished.status == 0, "\(finished)")
            #expect(finished.stderr.isEmpty, "\(finished)")
            acknowledged += finished.lines
        }
        #expect(acknowledged.count == workers * saves)
        let stored = try Processes.stockroom(["items", "list", "--format", "csv", "--db", database]).lines.dropFirst()
            .map { String($0.prefix(36)) }
        #expect(stored.count == workers * saves)
        let lost = Set(acknowledged).subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but missing: \(lost.sorted())")
        #expect(Set(stored).subtracting(acknowledged).isEmpty)
        #expect(try Processes.stockroom(["draft", "list", "--format", "json", "--db", database]).output == "[]")
        #expect(try Processes.sqlite3(database, "PRAGMA integrity_check;").output == "ok")
    }

    @Test func aFreshFileCreatedByManyProcessesAtOnceIsMigratedOnce() throws {
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            results.append(Result { try Processes.stockroom(["items", "add", "--name", "first \(worker)", "--db", database]) })
        }
        for result in results.all {
            let finished = try result.get()
            #expect(finished.status == 0, "\(finished)")
        }
        #expect(try Processes.sqlite3(database, "SELECT group_concat(version) FROM schema_migrations;").output == MigrationSet.embedded(.sqlite).versionList)
        #expect(try Processes.sqlite3(database, "SELECT count(*) FROM items;").output == "4")
    }

    @Test func sigkillAtAnyMomentKeepsEveryAcknowledgedWrite() throws {
        #expect(try Processes.stockroom(["migrate", "up", "--db", database]).status == 0)
        var acknowledged: [String] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<24 {
            let writer = try KillableLoop(script: """
                for i in $(seq 1 1000); do
                    case $((i % 3)) in
                        0) "$STOCKROOM" items add --name "round \(round) item $i" --quantity "$i" ;;
                        1) d=$("$STOCKROOM" draft add --name "round \(round) draft $i") && "$STOCKROOM" draft save "$d" ;;
                        2) "$STOCKROOM" items add --name "round \(round) item $i" --out-of-stock --back-order ;;
                    esac || exit 1
                done
                """, environment: ["STOCKROOM": Processes.stockroomPath, "STOCKROOM_DB": database])
            // Kill after a random number of acknowledged writes, so the kill lands at a
            // different point of a different command each round.
            let wanted = Int.random(in: 1...6, using: &generator)
            acknowledged += try writer.readLines(wanted)
            acknowledged += writer.killEverything()
        }
        #expect(try Processes.sqlite3(database, "PRAGMA integrity_check;").output == "ok")
        let stored = Set(try Processes.stockroom(["items", "list", "--format", "csv", "--db", database]).lines.dropFirst()
            .map { String($0.prefix(36)) })
        let missing = acknowledged.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing)")
        #expect(acknowledged.count >= 24)
        // Whatever the kills interrupted, every remaining row still decodes.
        #expect(try Processes.stockroom(["draft", "list", "--db", database]).status == 0)
    }
}

/// Collects results from concurrent workers.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<ProcessResult, any Error>] = []
    func append(_ result: Result<ProcessResult, any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<ProcessResult, any Error>] { lock.withLock { results } }
}

/// A bash loop whose stdout is read line by line, and which can be killed with SIGKILL along
/// with the `stockroom` process it is running at that moment.
final class KillableLoop {
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    init(script: String, environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Blocks until `count` complete lines have been printed.
    func readLines(_ count: Int) throws -> [String] {
        var lines: [String] = []
        while lines.count < count {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
                continue
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
            buffer.append(chunk)
        }
        return lines
    }

    /// Stops the loop, SIGKILLs the command it was running, and returns any further lines the
    /// loop had already printed (those writes were acknowledged too).
    func killEverything() -> [String] {
        let pid = process.processIdentifier
        kill(pid, SIGSTOP)                       // no new command starts from here on
        let children = try? Processes.run("/usr/bin/pkill", ["-KILL", "-P", String(pid)])
        _ = children
        kill(pid, SIGKILL)
        process.waitUntilExit()
        var rest = buffer
        rest.append(output.fileHandleForReading.readDataToEndOfFile())
        return String(decoding: rest, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
