import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom events`, and `--follow` woken by commits of other real processes: another
/// `stockroom`, the `sqlite3` shell. Every wait reads the follower's pipe (a line, or its end)
/// under the background process's deadline; nothing sleeps.
@Suite struct EventsCommandTests {
    let fixture = CLIDatabase()

    /// A `stockroom events --follow` process on the fixture's database.
    func follower(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> BackgroundProcess {
        try BackgroundProcess(Processes.stockroomPath, ["events", "--follow"] + arguments,
                              environment: ["STOCKROOM_DB": fixture.path].merging(environment) { $1 }, deadlineSeconds: 60)
    }

    /// The line's JSON object.
    func object(_ line: String?) throws -> [String: Any] {
        let line = try #require(line, "the follower's output ended")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// Adds an item in its own process; returns its id.
    @discardableResult
    func add(_ name: String) throws -> String {
        let added = try fixture.stockroom("items", "add", "--name", name, "--quantity", "1")
        try #require(added.status == 0, "\(added)")
        return added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func eachEventIsTheObjectItemsHistoryPrintsWithItsPosition() throws {
        let first = try add("Lamp")
        let second = try add("Desk")
        #expect(try fixture.stockroom("items", "update", first, "--quantity", "3").status == 0)
        let result = try fixture.stockroom("events")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result)")
        var history: [String: [Any]] = [:]
        for id in [first, second] {
            let printed = try fixture.stockroom("items", "history", id, "--format", "json")
            history[id] = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [Any])
        }
        let expected = [(first, 0), (second, 0), (first, 1)]
        for (index, line) in lines.enumerated() {
            var event = try object(line)
            #expect(event.removeValue(forKey: "position") as? Int == index + 1, "\(line)")
            let (id, version) = expected[index]
            let wanted = try #require(history[id]?[version] as? [String: Any])
            #expect(NSDictionary(dictionary: event) == NSDictionary(dictionary: wanted), "\(line)")
            // Same text, not only the same values: the line starts with the position, then the history's object.
            #expect(line.hasPrefix("{\"position\":\(index + 1),"), "\(line)")
        }
        let after = try fixture.stockroom("events", "--after", "2")
        #expect(after.stdout.split(separator: "\n").map(String.init) == [lines[2]], "\(after)")
        let table = try fixture.stockroom("events", "--format", "table")
        #expect(table.stdout.split(separator: "\n").count == 4 && table.stdout.hasPrefix("POSITION"), "\(table)")
    }

    @Test func afterPastTheLastEventIsRefused() throws {
        try add("Lamp")
        let result = try fixture.stockroom("events", "--after", "5")
        expectFailure(result, code: .historyGone, mentioning: "position 5 is past the last event")
        let negative = try fixture.stockroom("events", "--after", "-1")
        expectFailure(negative, code: .usage)
    }

    @Test func followingAMissingFileIsRefusedAndCreatesNothing() throws {
        let result = try fixture.stockroom("events", "--follow")
        expectFailure(result, code: .notFound, mentioning: "no Stockroom database")
        #expect(!fixture.exists)
    }

    @Test func followPrintsTheCommitsOfOtherProcessesAsTheyHappen() throws {
        try add("Before the follower")
        let follower = try follower()
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        for number in 2...6 {
            let id = try add("Item \(number)")
            let event = try object(follower.readLine())
            #expect(event["position"] as? Int == number && event["itemId"] as? String == id && event["kind"] as? String == "added")
        }
        // The sqlite3 shell writes too; a checkpoint that truncates the WAL between two commits
        // loses neither.
        _ = try fixture.sqlite3("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('00000000-0000-7000-8000-000000000001', 'From the shell', NULL, 'in_stock', 2, NULL,
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
            """)
        #expect(try object(follower.readLine())["itemId"] as? String == "00000000-0000-7000-8000-000000000001")
        _ = try fixture.sqlite3("PRAGMA wal_checkpoint(TRUNCATE);")
        let afterCheckpoint = try add("After the checkpoint")
        #expect(try object(follower.readLine())["itemId"] as? String == afterCheckpoint)
        _ = try fixture.sqlite3("PRAGMA wal_checkpoint(TRUNCATE); UPDATE items SET quantity = 9 WHERE id = '00000000-0000-7000-8000-000000000001';")
        let changed = try object(follower.readLine())
        #expect(changed["position"] as? Int == 9 && changed["kind"] as? String == "changed")
        kill(follower.processIdentifier, SIGTERM)
        let result = follower.wait()
        #expect(result.status == 0 && result.stderr.isEmpty && result.stdout.isEmpty, "\(result)")
    }

    @Test func theFallbackWithoutInotifyStillFollows() throws {
        try add("First")
        let follower = try follower(environment: ["STOCKROOM_WATCH": "poll"])
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        let id = try add("Second")
        #expect(try object(follower.readLine())["itemId"] as? String == id)
        kill(follower.processIdentifier, SIGINT)
        let result = follower.wait()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test func followResumesAfterAPositionAndEndsQuietlyOnCtrlC() throws {
        for number in 1...3 { try add("Item \(number)") }
        let follower = try follower(["--after", "2"])
        #expect(try object(follower.readLine())["position"] as? Int == 3)
        kill(follower.processIdentifier, SIGINT)
        let result = follower.wait()
        #expect(result.status == 0 && result.stderr.isEmpty && result.stdout.isEmpty, "\(result)")
    }

    @Test func aPipeClosedByItsReaderEndsTheFollowerWhileNothingIsWritten() throws {
        for number in 1...3 { try add("Item \(number)") }
        let result = try Processes.run("/bin/bash", ["-c", "set -o pipefail; \"$0\" events --follow | head -3", Processes.stockroomPath],
                                       environment: ["STOCKROOM_DB": fixture.path], timeoutSeconds: 60)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 3, "\(result)")
    }

    @Test func aRestoreEndsTheFollowerWithOneErrorLine() throws {
        try add("In the backup")
        let backup = fixture.directory.path("backup.sqlite")
        #expect(try fixture.stockroom("backup", backup).status == 0)
        try add("After the backup")
        try add("Also after the backup")
        let follower = try follower()
        for position in 1...3 { #expect(try object(follower.readLine())["position"] as? Int == position) }
        let restored = try fixture.stockroom("restore", backup, "--force")
        #expect(restored.status == 0, "\(restored)")
        let result = follower.wait()
        expectFailure(result, code: .historyGone, mentioning: "was replaced")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test func aDeletedFileEndsTheFollowerWithOneErrorLine() throws {
        try add("Lamp")
        let follower = try follower()
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.path + suffix) }
        let result = follower.wait()
        expectFailure(result, code: .historyGone, mentioning: "was deleted")
    }

    @Test func aFileReplacedByAnotherEndsTheFollower() throws {
        try add("Lamp")
        let other = CLIDatabase()
        #expect(try other.stockroom("items", "add", "--name", "Other", "--quantity", "1").status == 0)
        _ = try other.sqlite3("PRAGMA wal_checkpoint(TRUNCATE);")
        let follower = try follower()
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        #expect(rename(other.path, fixture.path) == 0)
        let result = follower.wait()
        expectFailure(result, code: .historyGone, mentioning: "was replaced by another file")
    }

    @Test func aReaderWhoCannotWriteTheFileStillFollows() throws {
        try add("Lamp")
        // The file is not writable by the follower: as root (which writes anything), the
        // follower runs as nobody; otherwise the file loses its write bits. The folder is
        // shared, as /tmp is, for SQLite's -shm.
        #expect(chmod(fixture.directory.url.path, 0o1777) == 0)
        #expect(chmod(fixture.path, 0o644) == 0)
        let asRoot = getuid() == 0
        if !asRoot { #expect(chmod(fixture.path, 0o444) == 0) }
        let before = try fixture.contents()
        let arguments = ["events", "--follow", "--db", fixture.path]
        let follower = asRoot
            ? try BackgroundProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Processes.stockroomPath] + arguments,
                                    deadlineSeconds: 60)
            : try BackgroundProcess(Processes.stockroomPath, arguments, deadlineSeconds: 60)
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        #expect(try fixture.contents() == before)
        if !asRoot { #expect(chmod(fixture.path, 0o644) == 0) }
        let id = try add("Desk")
        #expect(try object(follower.readLine())["itemId"] as? String == id)
        kill(follower.processIdentifier, SIGTERM)
        let result = follower.wait()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test func aFileReachedThroughASymbolicLinkIsWatchedWhereItIs() throws {
        try add("Lamp")
        let elsewhere = TemporaryDirectory()
        let link = elsewhere.path("link.sqlite")
        #expect(symlink(fixture.path, link) == 0)
        let follower = try BackgroundProcess(Processes.stockroomPath, ["events", "--follow", "--db", link], deadlineSeconds: 60)
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        let id = try add("Desk")
        #expect(try object(follower.readLine())["itemId"] as? String == id)
        kill(follower.processIdentifier, SIGTERM)
        #expect(follower.wait().status == 0)
    }
}
