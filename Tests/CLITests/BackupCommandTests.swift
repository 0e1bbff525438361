import Foundation
@testable import stockroom
import StockroomTestSupport
import StockroomMigrations
import Testing

/// `stockroom backup` run as a real process on real files.
@Suite struct BackupCommandTests {
    let fixture = CLIDatabase()

    /// Adds an item and saves a draft per round, through the real binary, until told to stop
    /// by a file appearing, or for at most `rounds` rounds. Prints `ready` after its first round
    /// and `stopped ROUND` (or `exhausted`) at the end.
    static let writerScript = """
        set -u
        bin=$1 stop=$2 name=$3 rounds=$4
        for ((i = 1; i <= rounds; i++)); do
            if [ -e "$stop" ]; then echo "stopped $i"; exit 0; fi
            "$bin" items add --name "$name item $i" >/dev/null || { echo "items add failed"; exit 1; }
            draft=$("$bin" draft add --name "$name draft $i") || { echo "draft add failed"; exit 1; }
            "$bin" draft save "$draft" >/dev/null || { echo "draft save failed"; exit 1; }
            if [ "$i" -eq 1 ]; then echo ready; fi
        done
        echo exhausted
        """

    @Test(.timeLimit(.minutes(3)))
    func aBackupTakenWhileTwoProcessesKeepAddingAndSavingItemsIsConsistent() throws {
        try fixture.addSampleContent()
        try fixture.addBulkItems(20_000)
        let stop = fixture.directory.path("stop-writers")
        let writers = try ["north", "south"].map { name in
            try BackgroundProcess("/bin/bash", ["-c", Self.writerScript, "writer", Processes.stockroomPath, stop, name, "2000"],
                                  environment: ["STOCKROOM_DB": fixture.path])
        }
        for writer in writers { #expect(writer.readLine() == "ready") }
        let before = try fixture.itemCount(of: fixture.path)

        let copy = fixture.directory.path("during-writes.sqlite")
        let backup = try fixture.stockroom("backup", copy, "--format", "json")

        #expect(FileManager.default.createFile(atPath: stop, contents: nil))
        let endings = writers.map { $0.wait() }
        let after = try fixture.itemCount(of: fixture.path)

        #expect(backup.status == 0, "\(backup)")
        // Both writers were still writing when the backup ended: they stopped on the signal,
        // not because they ran out of rounds or failed.
        for ending in endings {
            #expect(ending.status == 0 && ending.stdout.hasPrefix("stopped "), "\(ending)")
        }
        let check = try fixture.stockroom("check", "--db", copy)
        #expect(check.status == 0, "\(check)")
        let copied = try fixture.itemCount(of: copy)
        #expect(before <= copied && copied <= after, "before \(before), copy \(copied), after \(after)")
        #expect(after > before)
        #expect(backup.stdout.contains("\"items\":\(copied),"), "the summary counts the snapshot copied: \(backup.stdout)")
    }

    @Test func aBackupIsOneCheckedFileReadableByItsOwnerOnlyWithASummary() throws {
        try fixture.addSampleContent()
        let path = fixture.directory.path("nightly.sqlite")
        let result = try fixture.stockroom("backup", path, "--format", "json")

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "", "no progress when stderr is not a terminal")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["path"] as? String == path)
        #expect(json["bytes"] as? Int == size)
        #expect(json["pages"] as? Int == size / 4096)
        #expect((json["seconds"] as? Double).map { $0 >= 0 } == true)
        #expect(json["schemaVersion"] as? Int == MigrationSet.embedded(.sqlite).latestVersion)
        #expect(json["items"] as? Int == 3)
        #expect(json["drafts"] as? Int == 1)

        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try fixture.contents(of: path) == fixture.contents(of: fixture.path))
        // A self-contained file: no WAL to carry along, and nothing left beside it.
        #expect(try Processes.sqlite3(path, "PRAGMA journal_mode;").output == "delete")
        #expect(try fixture.fileNames().filter { $0.contains("nightly") } == ["nightly.sqlite"])
    }

    @Test func anExistingDestinationIsReplacedOnlyWithForce() throws {
        try fixture.addSampleContent()
        let path = try fixture.backup()
        let first = try fixture.contents(of: path)
        try fixture.stockroom("items", "add", "--name", "Added later")

        let refused = try fixture.stockroom("backup", path)
        expectFailure(refused, code: .cannotCreate, mentioning: "--force")
        #expect(try fixture.contents(of: path) == first)

        let forced = try fixture.stockroom("backup", path, "--force")
        #expect(forced.status == 0, "\(forced)")
        #expect(try fixture.contents(of: path) == fixture.contents(of: fixture.path))
        #expect(try fixture.contents(of: path) != first)
    }

    @Test func aDestinationInAMissingOrUnwritableFolderIsRefusedAndNothingIsWritten() throws {
        try fixture.addSampleContent()
        let filesBefore = try fixture.fileNames()
        let missing = try fixture.stockroom("backup", fixture.directory.path("no-such-folder/backup.sqlite"))
        expectFailure(missing, code: .cannotCreate, mentioning: "does not exist")

        // /sys refuses new files even to root, so this holds whoever runs the tests.
        #expect(!FileManager.default.createFile(atPath: "/sys/stockroom-probe", contents: nil))
        let unwritable = try fixture.stockroom("backup", "/sys/stockroom-backup.sqlite")
        expectFailure(unwritable, code: .cannotCreate, mentioning: "/sys/stockroom-backup.sqlite")
        #expect(try fixture.fileNames() == filesBefore)
    }

    @Test func aSourceThatIsMissingForeignOrDamagedIsRefusedWithoutLeavingAFile() throws {
        let destination = fixture.directory.path("backup.sqlite")

        let missing = try fixture.stockroom("backup", destination)
        expectFailure(missing, code: .notFound, mentioning: fixture.path)
        #expect(!FileManager.default.fileExists(atPath: fixture.path), "backup never creates the database")

        let text = fixture.directory.path("notes.txt")
        try "not a database\n".write(toFile: text, atomically: true, encoding: .utf8)
        expectFailure(try fixture.stockroom("backup", "--db", text, destination), code: .ioError, mentioning: "notes.txt")

        let foreign = fixture.directory.path("foreign.sqlite")
        try #require(try Processes.sqlite3(foreign, "CREATE TABLE t (x);").status == 0)
        expectFailure(try fixture.stockroom("backup", "--db", foreign, destination), code: .dataError, mentioning: "not a Stockroom")

        try fixture.addSampleContent()
        try fixture.addBulkItems(3_000)
        let damaged = try fixture.backup(named: "damaged.sqlite")
        try fixture.corrupt(damaged)
        expectFailure(try fixture.stockroom("backup", "--db", damaged, destination), code: .ioError)

        #expect(try fixture.fileNames().filter { $0.contains("backup") } == [], "no backup and no temporary file")
    }

    @Test func aBackupWorksAtAnySchemaVersionWithoutMigratingTheSource() throws {
        try fixture.addSampleContent()
        try fixture.markAsNewerSchema(fixture.path)
        let newer = try fixture.stockroom("backup", fixture.directory.path("newer.sqlite"), "--format", "json")
        #expect(newer.status == 0, "\(newer)")
        #expect(newer.stdout.contains("\"schemaVersion\":99"), "\(newer)")

        // An older file, as a Stockroom from before migration 2 left it.
        let older = fixture.directory.path("older.sqlite")
        try FileManager.default.copyItem(atPath: fixture.directory.path("newer.sqlite"), toPath: older)
        try #require(try Processes.sqlite3(older, "DELETE FROM schema_migrations WHERE version > 1; DROP TABLE drafts;").status == 0)
        let result = try fixture.stockroom("backup", "--db", older, fixture.directory.path("older-copy.sqlite"), "--format", "json")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\"schemaVersion\":1"), "\(result)")
        #expect(try fixture.schemaVersion(of: older) == 1, "the source was not migrated")
        #expect(try fixture.schemaVersion(of: fixture.directory.path("older-copy.sqlite")) == 1)
    }

    @Test func backingUpOntoTheDatabaseItselfIsRefused() throws {
        try fixture.addSampleContent()
        let before = try fixture.contents(of: fixture.path)
        expectFailure(try fixture.stockroom("backup", fixture.path, "--force"), code: .usage)
        #expect(try fixture.contents(of: fixture.path) == before)
    }

    @Test func onATerminalProgressGoesToStandardError() throws {
        try fixture.addSampleContent()
        try fixture.addBulkItems(3_000)
        let path = fixture.directory.path("watched.sqlite")
        // script(1) runs the command on a pseudo-terminal, as a person at a shell would.
        let command = "'\(Processes.stockroomPath)' backup '\(path)' 1>/dev/null"
        let result = try Processes.run("/usr/bin/script", ["--quiet", "--return", "--command", command, "/dev/null"],
                                       environment: ["STOCKROOM_DB": fixture.path])
        #expect(result.status == 0, "\(result)")
        let pages = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) / 4096
        #expect(result.stdout.contains("backup: \(pages) of \(pages) pages copied"), "\(result)")
        #expect(result.stdout.contains("backup: 256 of \(pages) pages copied"), "\(result)")
    }
}
