import StockroomMigrations

/// The table of search ranges, `items_search_ranges` (Migrations/<engine>/
/// 0007_name_search_ranges.sql): for every trigram of every name (ASCII letters folded, as the
/// search's LIKE folds them) and every head (a name's first ``headLength`` characters), the
/// least and the greatest start (first ``startLength`` characters) of that head's names holding
/// the trigram. A search reads, in each head holding all its term's trigrams, only the names
/// from the latest least start up to past every name beginning with the earliest greatest
/// start (ItemSearch.swift). Kept by triggers on `items`, on both engines.
enum ItemsSearchRangesTable {
    /// The table's name.
    static let name = "items_search_ranges"
    /// The table migration 0006 made and 0007 replaced: a file still at version 6 has it (a
    /// reader never migrates), and `restore` counts it as Stockroom's own.
    static let replacedName = "items_search_heads"
    /// How many characters of a name make its head (the migrations' `substr(name, 1, 2)`).
    static let headLength = 2
    /// How many characters of a name make the start a range is bounded by (the migrations'
    /// `substr(name, 1, 8)`): names that differ only further in never move a bound.
    static let startLength = 8
    /// The columns, as the migrations create them: written by the triggers, read by
    /// ``rangesSQL(trigramCount:)``.
    static let columns = ["trigram", "head", "first_start", "last_start"]
    /// The primary key: one range per trigram and head.
    static let key = ["trigram", "head"]

    /// The starts between which names holding every one of `trigrams` (folded by
    /// ``folded(_:)``) can lie, one pair per head holding them all, in name order: the latest
    /// least start and the earliest greatest start. Its parameters are the trigrams, one each.
    static func rangesSQL(trigramCount: Int) -> String {
        let placeholders = Array(repeating: "?", count: trigramCount).joined(separator: ", ")
        return """
            SELECT max(\(columns[2])), min(\(columns[3])) FROM \(name) WHERE \(columns[0]) IN (\(placeholders)) \
            GROUP BY \(columns[1]) HAVING count(*) = \(trigramCount) ORDER BY \(columns[1])
            """
    }

    /// `text` as the table stores trigrams: ASCII capitals as small letters, every other
    /// character as it is. SQLite's built-in lower() and PostgreSQL's over `COLLATE "C"` fold
    /// exactly these, so the term is folded here, once, for both.
    static func folded(_ text: String) -> String {
        guard text.utf8.contains(where: { (65...90).contains($0) }) else { return text }
        return String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Fills the table from `items` in one pass, after a bulk load that set the triggers keeping
    /// it aside (`copy`'s `withTriggersSuspended`; `import` keeps the triggers); every range is
    /// then exact again.
    static func rebuildSQL(_ dialect: DatabaseEngine) -> String {
        switch dialect {
        case .sqlite:
            """
            DELETE FROM \(name);
            INSERT INTO \(name) (\(columns.joined(separator: ", ")))
            WITH RECURSIVE positions(position) AS (
                SELECT 1 UNION ALL SELECT position + 1 FROM positions
                WHERE position + 3 <= (SELECT coalesce(max(length(name)), 0) FROM \(ItemsTable.name)))
            SELECT lower(substr(name, position, 3)), substr(name, 1, \(headLength)),
                   min(substr(name, 1, \(startLength))), max(substr(name, 1, \(startLength)))
            FROM \(ItemsTable.name) JOIN positions ON position + 2 <= length(name)
            GROUP BY 1, 2
            """
        case .postgres:
            "SELECT items_search_ranges_rebuild()"
        }
    }
}
