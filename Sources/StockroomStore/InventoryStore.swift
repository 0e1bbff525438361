import FoundationEssentials
import Glibc
import Inventory
import StockroomMigrations
import TextFormats

/// The inventory kept in one SQLite file or in a PostgreSQL database: open it, and use its
/// repositories, which behave the same on both.
///
/// Opening a store to write creates the file when it is missing and applies any pending
/// migration, so a user's first command needs no setup step. Opening it to read changes
/// nothing: the file is read as it is (``StorePool/open(_:busyTimeout:readOnly:connections:)`` with `readOnly`).
/// A foreign file, a database migrated by a newer Stockroom, or one whose applied migrations
/// were edited, is refused before anything is read or written.
public final class InventoryStore {
    /// The open connection, of either engine (Seam/EngineConnection.swift).
    let connection: any EngineConnection
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

    /// ``init(location:busyTimeout:)`` with the busy timeout in the engine's milliseconds (the
    /// programs' `--busy-timeout`).
    package convenience init(location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws {
        switch location {
        case .file(let path):
            try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        case .postgres(let uri):
            try self.init(postgresURI: uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
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
            return try reading(postgresURI: uri, contents: contents)
        }
    }

    /// Wraps an open connection whose schema is already current: what each engine's opening
    /// (Engines/SQLite/InventoryStore+SQLite.swift, Engines/PostgreSQL/InventoryStore+PostgreSQL.swift)
    /// ends with.
    init(connection: any EngineConnection) {
        self.connection = connection
        items = ItemRepository(storage: connection)
        drafts = DraftRepository(storage: connection)
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
            case .items: Contents.columnsVersion
            case .drafts: Contents.draftColumnsVersion
            case .itemHistory, .itemHistoryPositions: Contents.historyColumnsVersion
            }
        }
        /// The schema version from which the tables have every column this binary reads: the
        /// newest migration that added an item field's columns (``ItemField/addedIn``; 0008 added
        /// `location` to items, drafts and item_events). An older SQLite file is read through
        /// views that stand in for the newer columns (`Database.readOlderColumns(schemaVersion:)`).
        static let columnsVersion = ItemField.allCases.map(\.addedIn).max() ?? 1
        /// The schema version from which `drafts` has every column this binary reads: the
        /// item's, and the conflict's that 0012 added (`DraftsTable.conflictsAddedIn`).
        static let draftColumnsVersion = max(columnsVersion, DraftsTable.conflictsAddedIn)
        /// The schema version from which `item_events` has every column this binary reads: the
        /// item fields' (``columnsVersion``) and how each change was made (0011's
        /// ``EventDetailsCodec/addedIn``), which an older SQLite file's views stand in for too.
        static let historyColumnsVersion = max(columnsVersion, EventDetailsCodec.addedIn)
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

    /// Runs `body` in one write transaction spanning any number of repository calls. Called
    /// inside another (or inside a grouped write, ``StorePool/groupedWrite(_:)``), it is a
    /// savepoint of that transaction: rolled back alone when `body` throws.
    ///
    /// On PostgreSQL the transaction runs `body` again from the start when the server reports
    /// a deadlock or serialization failure, so `body` must only use the store (no output, no
    /// counting) until it returns.
    public func write<T>(_ body: () throws -> T) throws -> T {
        try connection.inStoreTransaction(body)
    }

    /// The rows of `table`, 0 when it does not exist (an older schema).
    func rowCount(of table: String) throws -> Int {
        try connection.rowCount(of: table)
    }

    /// True when the store's connection to a PostgreSQL server broke (the server stopped or
    /// restarted) and ``reconnect()`` is needed; always false for a file.
    ///
    /// Found without a round trip: it reads what the server sent since the last statement
    /// (a server that stops or restarts says so to its idle clients and closes the
    /// connection), so a restart shows here before the next statement fails on it. Ask it
    /// between statements.
    public var isDisconnected: Bool {
        connection.isDisconnected
    }

    /// Connects to the PostgreSQL server again after the connection broke: a long-lived user
    /// of one store (the web server's pool) calls it before its next piece of work, so a
    /// server restart costs the requests made while the server is down, not every later one.
    /// Nothing to do for a file.
    ///
    /// - Throws: `PostgresError` when the server still cannot be reached.
    public func reconnect() throws {
        try connection.reconnect()
    }

    /// Runs `body` in one read transaction: every repository call in it sees the same snapshot.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try connection.inReadTransaction(body)
    }
}
