import StockroomMigrations
import TextFormats

extension StoreMigrations {
    /// The runner for the server's database at `uri`.
    func serverRunner(_ uri: String) throws -> PostgresMigrationRunner {
        PostgresMigrationRunner(connection: try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds),
                                migrations: migrations)
    }
}
