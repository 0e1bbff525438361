import PostgresCore
import StockroomMigrations

// PostgreSQL's side of opening an ``InventoryStore``: a server's database and its connection
// as the store's ``EngineConnection``.

extension PostgresStoreConnection: EngineConnection {
    func inStoreTransaction<T>(_ body: () throws -> T) throws -> T {
        try inTransaction(body)
    }

    /// Each write in its own transaction. The pool never groups writes on a server: its
    /// writes run side by side, one per connection, and PostgreSQL already lets one WAL flush
    /// make every commit record written before it durable.
    func commitTogether(_ writes: [() -> Bool]) throws {
        for write in writes { _ = write() }
    }

    var isDisconnected: Bool { !connection.pollConnection() }

    func reconnect() throws { try connection.reset() }

    var concrete: ConcreteConnection { .postgres(self) }

    func serverCommitWatch() throws -> (any CommitWatch)? {
        try NotificationCommitWatch(connection: connection)
    }
}

extension InventoryStore {
    /// Connects to the database at `uri` and brings its schema up to date
    /// (``init(location:busyTimeoutMilliseconds:)``).
    ///
    /// `checkFirst`, when given, is handed the database's migration status on the same
    /// connection before anything is migrated, and may refuse it (a sync's hub at another
    /// schema version): one connection where a separate status would take two, and each
    /// connection to a server is a backend's start-up.
    convenience init(postgresURI uri: String, busyTimeoutMilliseconds: Int32,
                     checkFirst: (([MigrationStatusEntry]) throws -> Void)? = nil) throws {
        let connection = try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let runner = PostgresMigrationRunner(connection: connection)
        if let checkFirst { try checkFirst(try runner.status()) }
        try runner.ensureCurrent()
        self.init(postgres: connection)
    }

    /// Connects to the database at `uri` to read `contents`, changing nothing
    /// (``reading(location:busyTimeoutMilliseconds:contents:)``): a database whose tables were
    /// never created reads as an empty inventory.
    static func reading(postgresURI uri: String, contents: Contents) throws -> InventoryStore {
        // No lock wait set: a read takes no lock a writer holds.
        let connection = try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: nil)
        let runner = PostgresMigrationRunner(connection: connection)
        let applied = try runner.appliedMigrations()
        try runner.validate(applied)
        let version = applied.last?.version ?? 0
        guard version >= contents.createdIn else { return try emptyStandIn(migrations: .embedded(.sqlite)) }
        guard version >= contents.readableFrom else {
            throw DatabaseFileError.needsMigration(path: DatabaseLocation.postgres(uri).description, version: version)
        }
        return InventoryStore(postgres: connection)
    }

    /// Wraps a PostgreSQL connection whose schema is already current (for tests; fronts open a
    /// ``DatabaseLocation``).
    ///
    /// Its `lock_timeout` is the caller's: see ``PostgresCore/Connection/waitForLocks(upTo:)``.
    convenience init(postgres connection: Connection) {
        self.init(connection: PostgresStoreConnection(connection))
    }
}
