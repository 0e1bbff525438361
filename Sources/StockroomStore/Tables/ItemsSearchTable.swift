/// The `items_search` table (SQLite only, migration 0005): an FTS5 trigram index with external
/// content over ``ItemsTable``, kept by the triggers of 0005 and read by ``ItemSearch``.
enum ItemsSearchTable {
    /// The table's name.
    static let name = "items_search"
    /// Rebuilds the index from `items` in one pass: after a bulk load that set the triggers
    /// keeping it aside (`copy`), cheaper than maintaining it row by row.
    static let rebuildSQL = "INSERT INTO \(name) (\(name)) VALUES ('rebuild')"
}
