import Foundation
import SQLiteCore
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom restore` run as a real process on real files.
@Suite struct RestoreCommandTests {
    let fixture = CLIDatabase()

    func safetyCopies() throws -> [String] {
        try fixture.fileNames().filter { $0.contains(".before-restore-") }
    }

    @Test func aRestoredDatabaseEqualsTheBackupAndTheReplacedContentIsKept() throws {
        try fixture.addSampleContent()
        let backup = try fixture.backup()
        let backedUp = try fixture.contents(of: backup)
        try fixture.stockroom("items", "add", "--name", "Bought after the backup")
        try fixture.stockroom("draft", "add", "--name", "Started after the backup")
        let changed = try fixture.contents(of: fixture.path)

        let refused = try fixture.stockroom("restore", backup)
        expectFailure(refused, code: .cannotCreate, mentioning: "4 items and 2 drafts")
        #expect(try fixture.contents(of: fixture.path) == changed)
        #expect(try safetyCopies() == [])

        let restored = try fixture.stockroom("restore", backup, "--force")
        #expect(restored.status == 0, "\(restored)")
        #expect(try fixture.contents(of: fixture.path) == backedUp)
        let kept = try safetyCopies()
        try #require(kept.count == 1)
        #expect(kept[0].range(of: #"^inventory\.before-restore-\d{8}T\d{6}Z\.sqlite$"#, options: .regularExpression) != nil, "\(kept)")
        #expect(try fixture.contents(of: fixture.directory.path(kept[0])) == changed)
        #expect(try fixture.stockroom("check").status == 0)

        // A second restore in the same second keeps its own safety copy instead of overwriting.
        #expect(try fixture.stockroom("restore", backup, "--force").status == 0)
        #expect(try safetyCopies().count == 2)
    }

    @Test func aProcessThatHadTheDatabaseOpenSeesTheRestoredContent() throws {
        try fixture.addSampleContent()
        let backup = try fixture.backup()
        try fixture.addBulkItems(500)
        // This test process is the other process: one connection idle, one inside a read.
        let idle = try Database(path: fixture.path)
        let reading = try Database(path: fixture.path)
        let count = "SELECT count(*) FROM items"
        func items(_ database: Database) throws -> Int {
            try database.withStatement(count) { try $0.step(); return $0.int(at: 0) }
        }
        #expect(try items(idle) == 503)

        try reading.readTransaction {
            #expect(try items(reading) == 503)
            let restored = try fixture.stockroom("restore", backup, "--force")
            #expect(restored.status == 0, "\(restored)")
            // A reader mid-transaction keeps its snapshot: old content, whole.
            #expect(try items(reading) == 503)
        }
        #expect(try items(reading) == 3)
        #expect(try items(idle) == 3)
        #expect(try idle.integrityProblems() == [])
        #expect(try idle.withStatement("SELECT name FROM drafts") { try $0.step(); return $0.text(at: 0) } == "Half-typed")
        // The connection that saw the old schema cache writes to the new content.
        // (A draft: an item changed by hand, around its history, is what `check` reports.)
        try idle.execute("UPDATE drafts SET name = 'Typed' WHERE name = 'Half-typed'")
        #expect(idle.changes == 1)
        #expect(try fixture.stockroom("check").status == 0)
    }

    @Test func aRestoreWaitsForTheWriteLockAndGivesUpWithoutChangingAnything() throws {
        try fixture.addSampleContent()
        let backup = try fixture.backup()
        try fixture.stockroom("items", "add", "--name", "Unsaved yet")
        let before = try fixture.contents(of: fixture.path)
        let writer = try Database(path: fixture.path)
        try writer.writeTransaction {
            let result = try fixture.stockroom("restore", backup, "--force", "--busy-timeout", "0")
            expectFailure(result, code: .busy)
        }
        #expect(try fixture.contents(of: fixture.path) == before)
        #expect(try safetyCopies() == [])
    }

    enum BadBackup: String, CaseIterable {
        case missing, notADatabase, truncated, corrupted, newerSchema, notStockroom
    }

    @Test(arguments: BadBackup.allCases)
    func aBadBackupIsRefusedAndTheLiveDatabaseIsUnchanged(_ bad: BadBackup) throws {
        try fixture.addSampleContent()
        try fixture.addBulkItems(3_000)
        let source = try fixture.backup()
        let expectedCode: Failure.Code
        switch bad {
        case .missing:
            try FileManager.default.removeItem(atPath: source)
            expectedCode = .notFound
        case .notADatabase:
            try "id,name\n1,Keyboard\n".write(toFile: source, atomically: false, encoding: .utf8)
            expectedCode = .ioError
        case .truncated:
            try fixture.truncate(source)
            expectedCode = .ioError
        case .corrupted:
            try fixture.corrupt(source)
            expectedCode = .ioError
        case .newerSchema:
            try fixture.markAsNewerSchema(source)
            expectedCode = .dataError
        case .notStockroom:
            try #require(try Processes.sqlite3(source, "DROP TABLE schema_migrations;").status == 0)
            expectedCode = .dataError
        }
        try fixture.stockroom("items", "add", "--name", "Only in the live database")
        let before = try fixture.contents(of: fixture.path)
        let filesBefore = try fixture.fileNames()

        let result = try fixture.stockroom("restore", source, "--force")
        expectFailure(result, code: expectedCode, mentioning: "backup.sqlite")
        #expect(try fixture.contents(of: fixture.path) == before)
        #expect(try fixture.fileNames() == filesBefore, "no safety copy, no temporary file")
    }

    @Test func restoringIntoADatabaseThatDoesNotExistYetCreatesIt() throws {
        try fixture.addSampleContent()
        let backup = try fixture.backup()
        let fresh = fixture.directory.path("fresh.sqlite")
        let result = try Processes.stockroom(["restore", backup], environment: ["STOCKROOM_DB": fresh])
        #expect(result.status == 0, "\(result)")
        #expect(try fixture.contents(of: fresh) == fixture.contents(of: backup))
        #expect(try safetyCopies() == [])
    }

    /// A database Stockroom created and that holds nothing (every migration applied: history,
    /// the search index and its FTS5 tables) is restored into without --force: its tables are
    /// all Stockroom's own, none another program's.
    @Test func restoringIntoAnEmptyMigratedDatabaseNeedsNoForce() throws {
        try fixture.addSampleContent()
        let backup = try fixture.backup()
        let empty = fixture.directory.path("empty.sqlite")
        let migrated = try Processes.stockroom(["migrate", "up"], environment: ["STOCKROOM_DB": empty])
        #expect(migrated.status == 0, "\(migrated)")
        let result = try Processes.stockroom(["restore", backup], environment: ["STOCKROOM_DB": empty])
        #expect(result.status == 0, "\(result)")
        #expect(try fixture.contents(of: empty) == fixture.contents(of: backup))
    }

    @Test func restoringTheDatabaseOntoItselfIsRefused() throws {
        try fixture.addSampleContent()
        let before = try fixture.contents(of: fixture.path)
        expectFailure(try fixture.stockroom("restore", fixture.path, "--force"), code: .usage)
        #expect(try fixture.contents(of: fixture.path) == before)
    }
}
