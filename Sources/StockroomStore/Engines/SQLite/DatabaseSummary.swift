import SQLiteCore
import StockroomMigrations

/// What a Stockroom database holds: its schema version and how many items and drafts.
public struct DatabaseSummary: Sendable, Equatable {
    /// The newest migration applied to the file, whether or not this binary knows it.
    public let schemaVersion: Int
    /// Rows of `items`; 0 when the table does not exist at this schema version.
    public let itemCount: Int
    /// Rows of `drafts`; 0 when the table does not exist at this schema version.
    public let draftCount: Int

    /// Creates a summary.
    public init(schemaVersion: Int, itemCount: Int, draftCount: Int) {
        self.schemaVersion = schemaVersion
        self.itemCount = itemCount
        self.draftCount = draftCount
    }

    /// "3 items and 1 draft", for messages.
    public var itemsAndDrafts: String { DatabaseSummary.itemsAndDrafts(itemCount, draftCount) }

    static func itemsAndDrafts(_ items: Int, _ drafts: Int) -> String {
        "\(items) item\(items == 1 ? "" : "s") and \(drafts) draft\(drafts == 1 ? "" : "s")"
    }

    /// Reads the summary without changing anything; call it inside a read transaction to have
    /// the three figures describe one snapshot.
    ///
    /// - Returns: nil when the file has no `schema_migrations` table, so is no Stockroom database.
    public static func read(from database: Database) throws -> DatabaseSummary? {
        guard try database.tableExists(MigrationRunner.tableName) else { return nil }
        let applied = try MigrationRunner(database: database).appliedMigrations()
        return DatabaseSummary(
            schemaVersion: applied.last?.version ?? 0,
            itemCount: try database.rowCount(of: ItemsTable.name),
            draftCount: try database.rowCount(of: DraftsTable.name))
    }
}
