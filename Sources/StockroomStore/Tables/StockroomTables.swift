import StockroomMigrations

/// Every table Stockroom's own migrations create in an SQLite file, by name: what `restore`
/// replaces as its own content rather than counting as another program's tables.
enum StockroomTables {
    /// The tables with a type in this folder, and the migration runner's record.
    static let described: Set<String> = [
        ItemsTable.name, ItemEventsTable.name, ItemEventContextTable.name, DraftsTable.name, ItemsSearchTable.name,
        ItemsSearchRangesTable.name, ItemsSearchRangesTable.replacedName, ItemsSearchPositionsTable.name,
        SyncIdentityTable.name, SyncReplicaTable.name, SyncIntentsTable.name, SyncAppliedTable.name,
        SyncOriginsTable.name, SyncRereadsTable.name,
        MigrationRunner.tableName,
    ]

    /// Whether `table` is one of Stockroom's own: a described table or one FTS5 keeps the
    /// search index in.
    static func owns(_ table: String) -> Bool {
        described.contains(table) || ItemsSearchTable.shadowTableNames.contains(table)
    }
}
