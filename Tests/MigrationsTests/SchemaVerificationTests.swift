import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// `verify`: the live schema against the schema the applied migrations produce.
@Suite struct SchemaVerificationTests {
    let database: Database
    let runner: MigrationRunner

    init() throws {
        database = try scratchDatabase()
        runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.notes))
        try runner.migrate(upTo: 2)
    }

    @Test func aFreshlyMigratedDatabaseIsCleanWithItsPendingCounted() throws {
        let report = try runner.verify()
        #expect(report.isClean, "\(report.findings)")
        #expect(report.appliedCount == 2)
        #expect(report.pendingCount == 1)
    }

    @Test func aDroppedIndexIsNamed() throws {
        try database.execute("DROP INDEX boxes_by_shelf")
        let report = try runner.verify()
        #expect(report.findings == [
            "index boxes_by_shelf on boxes is missing: the migrations create it but the database has none (dropped by hand?)",
        ])
    }

    @Test func anAddedTriggerIsNamed() throws {
        try database.execute("CREATE TRIGGER boxes_touch AFTER INSERT ON boxes BEGIN SELECT 1; END")
        #expect(try runner.verify().schemaDifferences.map(\.description) == [
            "trigger boxes_touch on boxes is in the database but no applied migration creates it (added by hand?)",
        ])
    }

    @Test func aChangedDefinitionShowsWhereItDiffers() throws {
        try database.execute("DROP INDEX boxes_by_shelf; CREATE INDEX boxes_by_shelf ON boxes (label)")
        let differences = try runner.verify().schemaDifferences
        #expect(differences.count == 1)
        #expect(differences.first?.description ==
            "index boxes_by_shelf on boxes differs from what the migrations create: expected `… BOXES_BY_SHELF ON BOXES ( SHELF_ID )` where the database has `… BOXES_BY_SHELF ON BOXES ( LABEL )`")
    }

    @Test func anAddedColumnIsAChangedTable() throws {
        try database.execute("ALTER TABLE shelves ADD COLUMN colour TEXT")
        let differences = try runner.verify().schemaDifferences
        #expect(differences.map { if case .changed(let expected, _) = $0 { expected.name } else { "" } } == ["shelves"])
    }

    @Test func layoutCommentsAndKeywordCaseAreNotDifferences() throws {
        try database.execute("""
            DROP INDEX boxes_by_shelf;
            create index boxes_by_shelf
                on boxes(   shelf_id  ) -- recreated by hand, same meaning
            """)
        #expect(try runner.verify().isClean)
    }

    @Test func aChangedLiteralIsADifference() throws {
        try database.execute("""
            CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL DEFAULT 'a');
            """)
        let expected = try SchemaSnapshot.produced(by: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves,
            (fileName: "0003_notes.sql", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL DEFAULT 'A');")))
        let differences = try SchemaSnapshot(reading: database).differences(from: expected)
        #expect(differences.map(\.description) == [
            "table notes differs from what the migrations create: expected `… TEXT NOT NULL DEFAULT 'A' )` where the database has `… TEXT NOT NULL DEFAULT 'a' )`",
        ])
    }

    @Test func unknownVersionsSkipTheSchemaComparison() throws {
        let older = MigrationRunner(database: database, migrations: try migrationSet(MigrationFixtures.shelvesAndBoxes))
        let report = try older.verify()
        #expect(report.schemaComparisonSkipped)
        #expect(report.schemaDifferences.isEmpty)
        #expect(report.findings == [MigrationError.unknownAppliedVersions([2]).description])
    }

    @Test func everyTrustProblemIsReportedNotJustTheFirst() throws {
        let edited = (fileName: MigrationFixtures.rebuildShelves.fileName, sql: MigrationFixtures.rebuildShelves.sql + "\n-- edited")
        try database.execute("DROP INDEX boxes_by_shelf")
        let report = try MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, edited)).verify()
        #expect(report.problems.count == 1)
        #expect(report.schemaDifferences.count == 1)
        #expect(report.findings.count == 2)
        #expect(!report.isClean)
    }
}
