import SQLiteCore
import StockroomMigrations

// SQLite's side of opening an ``InventoryStore``: a file (or an in-memory stand-in) and its
// connection as the store's ``EngineConnection``.

extension Database: EngineConnection {
    /// A new write transaction, or a savepoint inside one already open (a grouped write's
    /// shared transaction, ``StorePool/groupedWrite(_:)``).
    func inStoreTransaction<T>(_ body: () throws -> T) throws -> T {
        try inTransaction(body)
    }

    var isDisconnected: Bool { false }

    func reconnect() {}

    var concrete: ConcreteConnection { .sqlite(self) }

    func serverCommitWatch() -> (any CommitWatch)? { nil }
}

extension InventoryStore {
    /// The file at `path` with `migrations` (tests and tools apply their own sets), the busy
    /// timeout in the engine's milliseconds (the programs' `--busy-timeout`).
    ///
    /// `checkFirst`, when given, is handed the file's migration status on the connection the
    /// store then uses, before anything is migrated or written, and may refuse it (a sync's hub
    /// at another schema version): SQLite parses the whole schema for each connection.
    package convenience init(path: String, busyTimeoutMilliseconds: Int32, migrations: MigrationSet = .embedded(.sqlite),
                             checkFirst: (([MigrationStatusEntry]) throws -> Void)? = nil) throws {
        self.init(database: try DatabaseFile.openForWriting(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrations: migrations, checkFirst: checkFirst))
    }

    /// Opens the store to read `contents`, changing nothing in the file.
    ///
    /// A missing file, a new (empty) one, or a database older than the migration that created
    /// the table reads as an empty inventory (an in-memory stand-in); a database applied up to
    /// a version the queries can read is read as it is, pending migrations left pending.
    ///
    /// - Throws: ``DatabaseFileError/needsMigration(path:version:)`` when the table's columns
    ///   are older than the queries; whatever ``DatabaseFile/openForReading(path:busyTimeoutMilliseconds:migrations:accepting:)`` throws.
    package static func reading(path: String, busyTimeoutMilliseconds: Int32 = 5_000, contents: Contents,
                               migrations: MigrationSet = .embedded(.sqlite)) throws -> InventoryStore {
        if let (database, inspection) = try DatabaseFile.openForReading(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrations: migrations),
           inspection.version >= contents.createdIn {
            guard inspection.version >= contents.readableThroughViewsFrom else {
                throw DatabaseFileError.needsMigration(path: path, version: inspection.version)
            }
            if inspection.version < contents.readableFrom {
                try database.readOlderColumns(schemaVersion: inspection.version)
            }
            return InventoryStore(database: database)
        }
        return try emptyStandIn(migrations: migrations)
    }

    /// Wraps a SQLite connection whose schema is already current (for tests; fronts open a
    /// ``DatabaseLocation``).
    convenience init(database: Database) {
        self.init(connection: database)
    }

    /// The SQLite connection when the inventory is a file, nil on a server: for tests that
    /// change a file behind the store's back. Fronts use ``write(_:)`` and ``read(_:)``.
    var database: Database? {
        if case .sqlite(let database) = connection.concrete { return database }
        return nil
    }

    /// An in-memory inventory with the current schema and nothing in it.
    static func emptyStandIn(migrations: MigrationSet) throws -> InventoryStore {
        let empty = try Database(path: ":memory:")
        try MigrationRunner(database: empty, migrations: migrations).migrate()
        return InventoryStore(database: empty)
    }
}
