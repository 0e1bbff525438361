/// The table of search heads, `items_search_heads` (Migrations/sqlite/0006_name_search_heads.sql):
/// for every trigram of every name, ASCII letters folded by lower(), the name's first
/// ``headLength`` characters. A search walks only the name ranges of the heads holding all of
/// its term's trigrams (ItemSearch.swift). SQLite only; kept by triggers on `items`.
enum ItemsSearchHeadsTable {
    /// The table's name.
    static let name = "items_search_heads"
    /// How many characters of a name make its head (the migration's `substr(name, 1, 2)`).
    static let headLength = 2
    /// Fills the table from `items` in one pass, after a bulk load that set the triggers keeping
    /// it aside (`copy`'s `withTriggersSuspended`; `import` keeps the triggers); it also drops the
    /// pairs no name needs any more.
    static let rebuildSQL = """
        DELETE FROM \(name);
        INSERT OR IGNORE INTO \(name) (trigram, head)
        WITH RECURSIVE positions(position) AS (
            SELECT 1 UNION ALL SELECT position + 1 FROM positions
            WHERE position + 3 <= (SELECT coalesce(max(length(name)), 0) FROM \(ItemsTable.name)))
        SELECT lower(substr(name, position, 3)), substr(name, 1, \(headLength))
        FROM \(ItemsTable.name) JOIN positions ON position + 2 <= length(name)
        """
}
