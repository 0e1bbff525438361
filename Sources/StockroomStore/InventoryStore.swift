import FoundationEssentials
import Glibc
import Inventory
import PostgresCore
import SQLiteCore
import StockroomMigrations

/// The inventory kept in one SQLite file or in a PostgreSQL database: open it, and use its
/// repositories, which behave the same on both.
///
/// Opening a store to write creates the file when it is missing and applies any pending
/// migration, so a user's first command needs no setup step. Opening it to read changes
/// nothing: the file is read as it is (``StorePool/open(_:busyTimeout:readOnly:connections:)`` with `readOnly`).
/// A foreign file, a database migrated by a newer Stockroom, or one whose applied migrations
/// were edited, is refused before anything is read or written.
public final class InventoryStore {
    /// The open connection, for either engine.
    typealias Connections = PerEngine<Database, PostgresStoreConnection>

    let engine: Connections
    /// The SQLite connection when the inventory is a file, nil on a server: for tests that
    /// change a file behind the store's back. Fronts use ``write(_:)`` and ``read(_:)``.
    var database: Database? {
        if case .sqlite(let database) = engine { return database }
        return nil
    }
    /// The items of the inventory.
    public let items: ItemRepository
    /// The drafts being edited.
    public let drafts: DraftRepository

    /// Opens (or creates) the inventory at `location` and brings its schema up to date.
    ///
    /// A missing SQLite file is created. On PostgreSQL the database must exist; its tables are
    /// created by the first command. A database migrated by a newer Stockroom or with edited
    /// migrations is refused before anything is written.
    ///
    /// - Parameters:
    ///   - location: the SQLite file or PostgreSQL server.
    ///   - busyTimeout: how long a write waits for another process's lock before failing as
    ///     busy (``StoreFailure/Kind/busy``).
    /// - Throws: `SQLiteError` when the file cannot be opened or is not a database;
    ///   `PostgresError` for a server that cannot be reached; `MigrationError` when the
    ///   migrations cannot be trusted or applied.
    public convenience init(location: DatabaseLocation, busyTimeout: Duration = .seconds(5)) throws {
        try self.init(location: location, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds)
    }

    /// Opens (or creates) the database file at `path`, as ``init(location:busyTimeout:)``.
    public convenience init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        try self.init(path: path, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds)
    }

    /// The file at `path` with `migrations` (tests and tools apply their own sets), the busy
    /// timeout in the engine's milliseconds (the programs' `--busy-timeout`).
    package convenience init(path: String, busyTimeoutMilliseconds: Int32, migrations: MigrationSet = .embedded(.sqlite)) throws {
        self.init(database: try DatabaseFile.openForWriting(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrations: migrations))
    }

    /// ``init(location:busyTimeout:)`` with the busy timeout in the engine's milliseconds (the
    /// programs' `--busy-timeout`).
    package convenience init(location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws {
        switch location {
        case .file(let path):
            try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        case .postgres(let uri):
            let connection = try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try PostgresMigrationRunner(connection: connection).ensureCurrent()
            self.init(postgres: connection)
        }
    }

    /// Opens the inventory at `location` to read `contents`, changing nothing (see
    /// ``reading(path:busyTimeoutMilliseconds:contents:migrations:)``). A PostgreSQL database
    /// whose tables were never created reads as an empty inventory.
    package static func reading(location: DatabaseLocation, busyTimeoutMilliseconds: Int32 = 5_000,
                               contents: Contents) throws -> InventoryStore {
        switch location {
        case .file(let path):
            return try reading(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: contents)
        case .postgres(let uri):
            // No lock wait set: a read takes no lock a writer holds.
            let connection = try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: nil)
            let runner = PostgresMigrationRunner(connection: connection)
            let applied = try runner.appliedMigrations()
            try runner.validate(applied)
            let version = applied.last?.version ?? 0
            guard version >= contents.createdIn else { return try emptyStandIn(migrations: .embedded(.sqlite)) }
            guard version >= contents.readableFrom else {
                throw DatabaseFileError.needsMigration(path: location.description, version: version)
            }
            return InventoryStore(postgres: connection)
        }
    }

    /// Wraps a PostgreSQL connection whose schema is already current (for tests; fronts open a
    /// ``DatabaseLocation``).
    ///
    /// Its `lock_timeout` is the caller's: see ``PostgresCore/Connection/waitForLocks(milliseconds:)``.
    convenience init(postgres connection: Connection) {
        self.init(engine: .postgres(PostgresStoreConnection(connection)))
    }

    private init(engine: Connections) {
        self.engine = engine
        switch engine {
        case .sqlite(let database):
            items = ItemRepository(database: database)
            drafts = DraftRepository(database: database)
        case .postgres(let connection):
            items = ItemRepository(postgres: connection)
            drafts = DraftRepository(postgres: connection)
        }
    }

    /// An in-memory inventory with the current schema and nothing in it.
    private static func emptyStandIn(migrations: MigrationSet) throws -> InventoryStore {
        let empty = try Database(path: ":memory:")
        try MigrationRunner(database: empty, migrations: migrations).migrate()
        return InventoryStore(database: empty)
    }

    /// The tables a read command needs, with the schema versions that matter to it.
    package enum Contents: Sendable {
        /// The `items` table.
        case items
        /// The `drafts` table.
        case drafts
        /// Items with their history (`item_events`): versions and changes.
        case itemHistory
        /// The history with each event's position in commit order (`item_events.position`), as
        /// `copy` moves it.
        case itemHistoryPositions

        /// The migration that created the table: an older database has no such rows.
        var createdIn: Int {
            switch self {
            case .items, .itemHistory, .itemHistoryPositions: 1
            case .drafts: 2
            }
        }
        /// The oldest schema version this binary's queries on the table work with. Raise it
        /// when a migration changes the table's columns. Items older than their history cannot
        /// be read as having none: they would show no version, so such a database must be
        /// migrated first.
        var readableFrom: Int {
            switch self {
            case .items, .drafts, .itemHistory, .itemHistoryPositions: Contents.columnsVersion
            }
        }
        /// The schema version from which the tables have every column this binary reads: the
        /// newest migration that added an item field's columns (``ItemField/addedIn``; 0008 added
        /// `location` to items, drafts and item_events). An older SQLite file is read through
        /// views that stand in for the newer columns (`Database.readOlderColumns(schemaVersion:)`).
        static let columnsVersion = ItemField.allCases.map(\.addedIn).max() ?? 1
        /// The oldest schema version a SQLite file can be read from with the columns added
        /// since stood in for by temporary views (`Database.readOlderColumns(schemaVersion:)`).
        var readableThroughViewsFrom: Int {
            switch self {
            case .items, .drafts: createdIn
            case .itemHistory: 3
            case .itemHistoryPositions: 4
            }
        }
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
        self.init(engine: .sqlite(database))
    }

    /// Runs `body` in one write transaction spanning any number of repository calls.
    ///
    /// On PostgreSQL the transaction runs `body` again from the start when the server reports
    /// a deadlock or serialization failure, so `body` must only use the store (no output, no
    /// counting) until it returns.
    public func write<T>(_ body: () throws -> T) throws -> T {
        switch engine {
        case .sqlite(let database): try database.writeTransaction(body)
        case .postgres(let connection): try connection.inTransaction(body)
        }
    }

    /// The rows of `table`, 0 when it does not exist (an older schema).
    func rowCount(of table: String) throws -> Int {
        switch engine {
        case .sqlite(let database): try database.rowCount(of: table)
        case .postgres(let connection): try connection.rowCount(of: table)
        }
    }

    /// True when the store's connection to a PostgreSQL server broke (the server stopped or
    /// restarted) and ``reconnect()`` is needed; always false for a file.
    public var isDisconnected: Bool {
        if case .postgres(let connection) = engine { return !connection.connection.isConnected }
        return false
    }

    /// Connects to the PostgreSQL server again after the connection broke: a long-lived user
    /// of one store (the web server's pool) calls it before its next piece of work, so a
    /// server restart costs the requests made while the server is down, not every later one.
    /// Nothing to do for a file.
    ///
    /// - Throws: `PostgresError` when the server still cannot be reached.
    public func reconnect() throws {
        if case .postgres(let connection) = engine { try connection.connection.reset() }
    }

    /// Runs `body` in one read transaction: every repository call in it sees the same snapshot.
    public func read<T>(_ body: () throws -> T) throws -> T {
        switch engine {
        case .sqlite(let database): try database.inReadTransaction(body)
        case .postgres(let connection): try connection.inReadTransaction(body)
        }
    }
}
