import Foundation
@testable import stockroom
import StockroomTestSupport
import StockroomMigrations
import Testing

/// `stockroom check` run as a real process on real files.
@Suite struct CheckCommandTests {
    let fixture = CLIDatabase()

    @Test func aHealthyDatabaseAndItsBackupPass() throws {
        try fixture.addSampleContent()
        let live = try fixture.stockroom("check")
        #expect(live.status == 0, "\(live)")
        #expect(live.output == "ok: \(fixture.path): schema version \(MigrationSet.embedded(.sqlite).latestVersion), 3 items and 1 draft")
        #expect(live.stderr == "")

        let backup = try fixture.backup()
        let json = try fixture.stockroom("check", "--db", backup, "--format", "json")
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == true)
        #expect(object["schemaVersion"] as? Int == MigrationSet.embedded(.sqlite).latestVersion)
        #expect(object["items"] as? Int == 3)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func everyProblemIsOneLineAndTheExitCodeSaysTheContentBreaksARule() throws {
        try fixture.addSampleContent()
        try #require(try Processes.sqlite3(fixture.path, """
            PRAGMA ignore_check_constraints = ON;
            UPDATE items SET quantity = 0 WHERE name = 'Keyboard';
            UPDATE items SET color = 'mauve' WHERE name = 'Phone';
            UPDATE schema_migrations SET checksum = 'edited' WHERE version = 2;
            """).status == 0)
        let result = try fixture.stockroom("check")
        expectFailure(result, code: .dataError, mentioning: "problems")
        let problems = result.lines
        // Each bad row twice: in items, and in the 'changed' event the database recorded of it
        // (migration 0004), which holds the same bad value.
        #expect(problems.filter { $0.hasPrefix("constraint: ") }.count == 4, "\(result)")
        #expect(problems.filter { $0.hasPrefix("migrations: ") && $0.contains("modified") }.count == 1, "\(result)")
        #expect(problems.filter { $0.hasPrefix("rows: ") && $0.contains("quantity 0") }.count == 2, "\(result)")
        #expect(problems.filter { $0.hasPrefix("rows: ") && $0.contains("mauve") }.count == 2, "\(result)")
        #expect(problems.count == 9, "\(result)")

        let json = try fixture.stockroom("check", "--format", "json")
        expectFailure(json, code: .dataError)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        #expect((object["problems"] as? [[String: String]])?.count == 9)
    }

    @Test func aDamagedFileExitsWithTheIOCode() throws {
        try fixture.addSampleContent()
        try fixture.addBulkItems(3_000)
        let backup = try fixture.backup()
        try fixture.corrupt(backup)
        let result = try fixture.stockroom("check", "--db", backup)
        expectFailure(result, code: .ioError, mentioning: "backup.sqlite")
        #expect(result.lines.allSatisfy { $0.hasPrefix("integrity: ") } && !result.lines.isEmpty, "\(result)")
    }

    @Test func aMissingFileIsNotCreatedAndAnOlderOneIsNotMigrated() throws {
        expectFailure(try fixture.stockroom("check"), code: .notFound)
        #expect(!FileManager.default.fileExists(atPath: fixture.path))

        try fixture.addSampleContent()
        try #require(try Processes.sqlite3(fixture.path, "DELETE FROM schema_migrations WHERE version >= 2; DROP TABLE drafts; DROP TABLE item_events;").status == 0)
        let result = try fixture.stockroom("check")
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("schema version 1 of \(MigrationSet.embedded(.sqlite).latestVersion)"), "\(result)")
        #expect(try fixture.schemaVersion(of: fixture.path) == 1)
    }

    @Test func aDatabaseFromANewerStockroomIsReported() throws {
        try fixture.addSampleContent()
        try fixture.markAsNewerSchema(fixture.path)
        let result = try fixture.stockroom("check")
        expectFailure(result, code: .dataError)
        #expect(result.lines == ["migrations: the database has migration 99 that this stockroom does not know; it was created by a newer version"])
    }
}
