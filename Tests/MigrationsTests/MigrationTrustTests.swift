import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// Databases the runner must refuse, and how `status` shows them.
@Suite struct MigrationTrustTests {
    let database: Database

    init() throws {
        database = try scratchDatabase()
        try MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves)).migrate()
    }

    @Test func anAppliedFileEditedAfterwardsIsRefusedAndShownAsModified() throws {
        let edited = (fileName: MigrationFixtures.rebuildShelves.fileName,
                      sql: MigrationFixtures.rebuildShelves.sql + "\n-- an afterthought\n")
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, edited, MigrationFixtures.notes))
        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .checksumMismatch(let version, let fileName, _, _) = error else {
            Issue.record("expected checksumMismatch, got \(error)")
            return
        }
        #expect(version == 2 && fileName == "0002_rebuild_shelves.sql")
        #expect(try !database.hasObject("notes"))
        #expect(try runner.status().map(\.checksumMatches) == [true, false, nil])
    }

    @Test func aFileCheckedOutWithCRLFLineEndsIsNotModified() throws {
        let crlf = (fileName: MigrationFixtures.rebuildShelves.fileName,
                    sql: MigrationFixtures.rebuildShelves.sql.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(crlf.sql != MigrationFixtures.rebuildShelves.sql)
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, crlf, MigrationFixtures.notes))
        #expect(try runner.migrate().map(\.version) == [3])
        #expect(try runner.status().map(\.checksumMatches) == [true, true, true])
    }

    @Test func aDatabaseFromANewerBinaryIsRefusedAndItsUnknownVersionsListed() throws {
        let runner = MigrationRunner(database: database, migrations: try migrationSet(MigrationFixtures.shelvesAndBoxes))
        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .unknownAppliedVersions(let versions) = error else {
            Issue.record("expected unknownAppliedVersions, got \(error)")
            return
        }
        #expect(versions == [2])
        let status = try runner.status()
        #expect(status.map(\.state) == [.applied, .unknown])
        #expect(status.last?.name == "rebuild_shelves")
        #expect(status.last?.fileName == nil)
    }

    @Test func aSkippedVersionIsAGapThatIsRefused() throws {
        let other = try scratchDatabase()
        try MigrationRunner(database: other, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.notes)).migrate()
        let runner = MigrationRunner(database: other, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.notes))
        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .gap(let missing) = error else {
            Issue.record("expected gap, got \(error)")
            return
        }
        #expect(missing == [2])
        #expect(try runner.status().map(\.state) == [.applied, .skipped, .applied])
        #expect(try other.integer("SELECT count(*) FROM pragma_table_info('shelves') WHERE name = 'aisle'") == 0)
    }

    @Test func statusListsPendingMigrationsWithoutTimesOrChecksums() throws {
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.notes))
        let status = try runner.status()
        #expect(status.map(\.state) == [.applied, .applied, .pending])
        #expect(status.map { $0.appliedAt == nil } == [false, false, true])
        #expect(status.map(\.fileName) == ["0001_create_shelves_and_boxes.sql", "0002_rebuild_shelves.sql", "0003_create_notes.sql"])
    }
}
