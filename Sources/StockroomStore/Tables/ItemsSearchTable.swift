/// The `items_search` table (SQLite only, migration 0005): an FTS5 trigram index with external
/// content over ``ItemsTable``, kept by the triggers of 0005 and read by ``ItemSearch``.
enum ItemsSearchTable {
    /// The table's name.
    static let name = "items_search"
    /// The tables FTS5 keeps the index in, named after it (`detail=none` and external content
    /// leave out `_content`; `_docsize` only without `columnsize=0`): every name FTS5 may use.
    static let shadowTableNames: Set<String> = ["data", "idx", "config", "docsize", "content"].reduce(into: []) {
        $0.insert("\(name)_\($1)")
    }
    /// Rebuilds the index from `items` in one pass: after a bulk load that set the triggers
    /// keeping it aside (`copy`), cheaper than maintaining it row by row.
    static let rebuildSQL = "INSERT INTO \(name) (\(name)) VALUES ('rebuild')"

    /// Whether a trigger, by its SQL, writes this index: not `items_search_ranges`, whose name
    /// begins alike.
    static func isWritten(byTrigger sql: String) -> Bool {
        sql.contains("INSERT INTO \(name) (")
    }
}
