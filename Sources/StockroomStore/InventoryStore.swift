import Foundation
import Inventory
import SQLiteCore
import StockroomMigrations

/// The inventory kept in one SQLite file: open it, and use its repositories.
///
/// Opening a store to write creates the file when it is missing and applies any pending
/// migration, so a user's first command needs no setup step. Opening it to read changes
/// nothing: the file is read as it is (see ``reading(path:busyTimeoutMilliseconds:contents:migrations:)``).
/// A foreign file, a database migrated by a newer Stockroom, or one whose applied migrations
/// were edited, is refused before anything is read or written (see ``DatabaseFile``).
public final class InventoryStore {
    /// The connection; use it for transactions that span repositories.
    public let database: Database
    /// The items of the inventory.
    public let items: ItemRepository
    /// The drafts being edited.
    public let drafts: DraftRepository

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database;
    ///   ``MigrationError`` when its migrations cannot be trusted or applied.
    public convenience init(path: String, busyTimeoutMilliseconds: Int32 = 5_000, migrations: MigrationSet = .embedded) throws {
        self.init(database: try DatabaseFile.openForWriting(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrations: migrations))
    }

    /// The tables a read command needs, with the schema versions that matter to it.
    public enum Contents: Sendable {
        /// The `items` table.
        case items
        /// The `drafts` table.
        case drafts
        /// Items with their history (`item_events`): versions and changes.
        case itemHistory

        /// The migration that created the table: an older database has no such rows.
        var createdIn: Int {
            switch self {
            case .items, .itemHistory: 1
            case .drafts: 2
            }
        }
        /// The oldest schema version this binary's queries on the table work with. Raise it
        /// when a migration changes the table's columns. Items older than their history cannot
        /// be read as having none: they would show no version, so such a database must be
        /// migrated first.
        var readableFrom: Int {
            switch self {
            case .items, .drafts: createdIn
            case .itemHistory: 3
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
    public static func reading(path: String, busyTimeoutMilliseconds: Int32 = 5_000, contents: Contents,
                               migrations: MigrationSet = .embedded) throws -> InventoryStore {
        if let (database, inspection) = try DatabaseFile.openForReading(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrations: migrations),
           inspection.version >= contents.createdIn {
            guard inspection.version >= contents.readableFrom else {
                throw DatabaseFileError.needsMigration(path: path, version: inspection.version)
            }
            return InventoryStore(database: database)
        }
        let empty = try Database(path: ":memory:")
        try MigrationRunner(database: empty, migrations: migrations).migrate()
        return InventoryStore(database: empty)
    }

    /// Wraps a connection whose schema is already current.
    public init(database: Database) {
        self.database = database
        self.items = ItemRepository(database: database)
        self.drafts = DraftRepository(database: database, items: items)
    }

    /// Runs `body` in one write transaction spanning any number of repository calls.
    public func write<T>(_ body: () throws -> T) throws -> T {
        try database.writeTransaction(body)
    }
}
