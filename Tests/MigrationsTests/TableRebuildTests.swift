import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// sqlite.org's 12-step table rebuild, run as a migration.
@Suite struct TableRebuildTests {
    @Test func rebuildingAParentKeepsItsChildrenBecauseEnforcementIsOffDuringTheMigration() throws {
        let database = try scratchDatabase()
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves))
        try runner.migrate()
        // With enforcement on, DROP TABLE shelves would have cascaded to every box.
        #expect(try database.integer("SELECT count(*) FROM boxes") == 3)
        #expect(try database.texts("SELECT label || ':' || aisle FROM shelves ORDER BY id") == ["A:1", "B:1"])
        #expect(try database.integer("SELECT count(*) FROM pragma_foreign_key_check") == 0)
        #expect(try !database.hasObject("new_shelves"))
        #expect(try database.texts("SELECT \"table\" FROM pragma_foreign_key_list('boxes')") == ["shelves"])
    }

    @Test func aForeignKeyViolationRollsBackAndNamesTheTable() throws {
        let database = try scratchDatabase()
        try MigrationRunner(database: database, migrations: try migrationSet(MigrationFixtures.shelvesAndBoxes)).migrate()
        let schemaBefore = try SchemaSnapshot(reading: database)
        let runner = MigrationRunner(database: database, migrations: try migrationSet(
            MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildLeavingOrphans))

        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .foreignKeyViolation(let fileName, let table, let rowCount) = error else {
            Issue.record("expected foreignKeyViolation, got \(error)")
            return
        }
        #expect(fileName == "0002_rebuild_boxes.sql")
        #expect(table == "boxes")
        #expect(rowCount == 2)
        #expect(error.description.contains("table 'boxes'"))

        #expect(try SchemaSnapshot(reading: database) == schemaBefore)
        #expect(try database.integer("SELECT count(*) FROM shelves") == 2)
        #expect(try database.integer("SELECT count(*) FROM boxes") == 3)
        #expect(try runner.appliedMigrations().map(\.version) == [1])
        #expect(try database.integer("PRAGMA foreign_keys") == 1)
    }
}
