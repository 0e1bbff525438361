import SQLiteCore
import StockroomMigrations

extension StoreMigrations {
    /// A runner over an empty in-memory database: what a missing file reads as.
    func emptyRunner() throws -> MigrationRunner {
        MigrationRunner(database: try Database(path: ":memory:"), migrations: migrations)
    }
}
