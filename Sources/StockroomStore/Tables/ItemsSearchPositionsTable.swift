/// The `items_search_positions` table (SQLite only, migration 0010): the constant numbers
/// 1...``count``, the positions at which the search-range triggers take a name's trigrams
/// (``ItemsSearchRangesTable``) without a recursive query per row. Written once by its
/// migration; a name longer than ``count`` + 2 characters takes the positions beyond from the
/// recursive query, in triggers of their own.
enum ItemsSearchPositionsTable {
    /// The table's name.
    static let name = "items_search_positions"
    /// How many positions the table holds (the migration's 256).
    static let count = 256
}
