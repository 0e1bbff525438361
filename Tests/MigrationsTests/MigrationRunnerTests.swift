import Foundation
import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// Applying migrations: order, targets, failures and the transaction around them.
@Suite struct MigrationRunnerTests {
    @Test func appliesPendingMigrationsInOrderAndRecordsEach() throws {
        let database = try scratchDatabase()
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.notes, MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves))
        let applied = try runner.migrate()
        #expect(applied.map(\.version) == [1, 2, 3])
        #expect(try runner.appliedMigrations().map(\.version) == [1, 2, 3])
        #expect(try runner.appliedMigrations().map(\.checksum) == runner.migrations.migrations.map(\.checksum))
        #expect(try runner.migrate().isEmpty)
        #expect(try runner.pendingMigrations().isEmpty)
    }

    @Test func stopsAtTheTargetVersion() throws {
        let database = try scratchDatabase()
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.notes))
        #expect(try runner.migrate(upTo: 2).map(\.version) == [1, 2])
        #expect(try !database.hasObject("notes"))
        #expect(try runner.pendingMigrations().map(\.version) == [3])
    }

    @Test func aFailingStatementNamesFileStatementAndMessageAndLeavesThePreviousVersion() throws {
        let database = try scratchDatabase()
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.failingMidFile))
        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .statementFailed(let fileName, let statement, let underlying) = error else {
            Issue.record("expected statementFailed, got \(error)")
            return
        }
        #expect(fileName == MigrationFixtures.failingMidFile.fileName)
        #expect(statement == MigrationFixtures.failingStatement)
        #expect(underlying.message == "no such column: colour")
        #expect(error.description.contains("0002_add_labels.sql"))
        #expect(error.description.contains("`UPDATE labels SET colour = 'red'`"))
        // Each migration is its own transaction: the failing one is gone whole, statements
        // before the failure included, and the one before it stays applied.
        #expect(try !database.hasObject("labels"))
        #expect(try !database.hasObject("never_created"))
        #expect(try database.hasObject("shelves"))
        #expect(try runner.appliedMigrations().map(\.version) == [1])
    }

    @Test func aStatementThatFailsToCompileIsNamedWhole() throws {
        let again = (fileName: "0002_create_shelves_again.sql", sql: """
            -- Fails where SQLite reads the table name, long before the statement ends.
            CREATE TABLE shelves (
                id INTEGER PRIMARY KEY,
                note TEXT DEFAULT 'a;b'
            );
            """)
        let runner = MigrationRunner(database: try scratchDatabase(), migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, again))
        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .statementFailed(_, let statement, let underlying) = error else {
            Issue.record("expected statementFailed, got \(error)")
            return
        }
        #expect(statement.hasPrefix("CREATE TABLE shelves ("), "the comment before it is not part of the statement")
        #expect(statement.hasSuffix("note TEXT DEFAULT 'a;b'\n)"))
        #expect(underlying.message == "table shelves already exists")
    }

    @Test func aNoTransactionMigrationRunsOnItsOwnAfterTheOnesBeforeItCommit() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.path("vacuum.sqlite"))
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.vacuum))
        #expect(runner.migrations.migrations.map(\.runsInTransaction) == [true, true, false])
        // VACUUM fails inside a transaction, so applying it proves the runner left one.
        #expect(try runner.migrate().map(\.version) == [1, 2, 3])
        #expect(try runner.appliedMigrations().map(\.version) == [1, 2, 3])
        #expect(database.isAutocommit)
    }

    @Test func restoresForeignKeyEnforcementAfterMigrating() throws {
        let database = try scratchDatabase()
        try MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves)).migrate()
        #expect(try database.integer("PRAGMA foreign_keys") == 1)
        #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO boxes (shelf_id, label) VALUES (99, 'orphan')") }
    }

    @Test func ensureCurrentAppliesOnlyWhatIsPending() throws {
        let database = try scratchDatabase()
        try MigrationRunner(database: database, migrations: try migrationSet(MigrationFixtures.shelvesAndBoxes)).migrate()
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves))
        try runner.ensureCurrent()
        #expect(try runner.appliedMigrations().map(\.version) == [1, 2])
        #expect(try database.integer("SELECT count(*) FROM boxes") == 3)
    }
}
