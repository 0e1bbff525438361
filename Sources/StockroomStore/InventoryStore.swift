import Foundation
import Inventory
import SQLiteCore
import StockroomMigrations

/// The inventory kept in one SQLite file: open it, and use its repositories.
///
/// Opening a store creates the file when it is missing and applies any pending migration, so a
/// user's first command needs no setup step. A database migrated by a newer Stockroom, or whose
/// applied migrations were edited, is refused before anything is read or written.
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
        let database = try Database(path: path, configuration: .init(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        try MigrationRunner(database: database, migrations: migrations).ensureCurrent()
        self.init(database: database)
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
