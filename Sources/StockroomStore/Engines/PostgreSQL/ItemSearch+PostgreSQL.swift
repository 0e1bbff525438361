import Inventory

/// The search's plans on PostgreSQL (see ``ItemSearch``).
///
/// The choice: no range at all, no match. With a limit, walk the name ranges along
/// `items_by_name` (an index-only scan once autovacuum has visited the table), each range one
/// statement that stops at the page's last match, for at most ``ItemSearch/serverWalkBudget``
/// rows in all. When the matches are sparser than that, or without a limit, the plain
/// statement: the planner then fetches pg_trgm's candidates (few, for a term that rare in its
/// ranges, unless pg_trgm cannot narrow it: it skips punctuation).
/// (The server's planner alone picked, for a common term, between fetching and sorting every
/// candidate and walking from the first name, 20 ms to 1 s at 1M items; BENCHMARKS.md, W11.)
extension ItemSearch {
    /// The most `items_by_name` entries a walk reads on a server before the candidates answer
    /// instead: about 1 ms of index-only walking at 1M items, about what fetching and checking
    /// as many of pg_trgm's candidates costs. A term rarer than 20 in that many names of its
    /// ranges pays it once before its candidates are read (BENCHMARKS.md, "Search, third round").
    static let serverWalkBudget = 4_096
}

extension ItemRecords {
    /// ``forEachSearchedItem(matching:_:)`` on PostgreSQL, inside its snapshot. A database from
    /// before 0007 has no search ranges: the plain statement serves it, as before.
    func searchInServerSnapshot(_ term: String, _ query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        guard try rangesServeThisDatabase(), let ranges = try nameRanges(holding: term) else { return false }
        if ranges.isEmpty { return true }
        // The walk reads a range, then counts it: both must see one snapshot, or a row deleted
        // in between would make a range look walked to its end. Inside a caller's READ
        // COMMITTED transaction, the plain statement.
        guard let limit = query.limit, connection.readsFromOneSnapshot else { return false }
        let wanted = limit.addingReportingOverflow(query.offset)
        guard !wanted.overflow, wanted.partialValue <= ItemSearch.walkCeiling,
              let items = try walkedItemsOnServer(term, query, limit: limit, ranges: ranges) else { return false }
        for item in items { try body(item) }
        return true
    }

    /// Whether the database has the search ranges (0007) and stores text as UTF-8. In a
    /// database of another encoding (SQL_ASCII) the server's `substr` counts bytes while a
    /// term's trigrams are counted in characters, so a term with a non-ASCII letter would look
    /// up trigrams no range holds: the plain statement serves such a database. One round trip.
    private func rangesServeThisDatabase() throws -> Bool {
        try connection.withStatement(
            "SELECT CASE WHEN to_regclass(?) IS NOT NULL AND current_setting('server_encoding') = 'UTF8' THEN 1 ELSE 0 END"
        ) { statement in
            try statement.bind(ItemsSearchRangesTable.name, at: 0)
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
    }

    /// The page `query` selects when its matches lie within the first
    /// ``ItemSearch/serverWalkBudget`` rows of `ranges` in name order, or when the ranges hold
    /// fewer rows than that; nil when the page might need rows past it.
    ///
    /// Each range is walked by one statement that returns the rows of its matches, and stops at
    /// the page's last one: the walk reads only `id` and `name`, so PostgreSQL can answer it
    /// from the index (with another condition, status or colour, it reads the rows too). A range that yields too
    /// few matches is then counted, up to the budget left, to know whether the walk reached its
    /// end or spent the budget.
    private func walkedItemsOnServer(_ term: String, _ query: ItemQuery, limit: Int, ranges: [ItemSearch.NameRange]) throws -> [Item]? {
        guard limit > 0 else { return [] }
        let wanted = query.offset + limit
        var others = query
        others.nameContains = nil
        let (conditions, bindConditions): ([String], (Connection.Statement, Int) throws -> Int) = others.conditions(connection.dialect)
        let matches = ([ItemQuery.containsCondition(connection.dialect)] + conditions).joined(separator: " AND ")
        let walked = conditions.isEmpty ? "\(ItemsTable.key), name" : ItemsTable.selectColumns
        let rangeRows = "SELECT \(walked) FROM \(ItemsTable.name) WHERE name >= ? AND name < ? ORDER BY name, \(ItemsTable.key) LIMIT ?"
        let walk = """
            SELECT \(ItemsTable.selectColumns) FROM \(ItemsTable.name) JOIN (SELECT \(ItemsTable.key) FROM (\(rangeRows)) AS range_rows \
            WHERE \(matches) ORDER BY name, \(ItemsTable.key) LIMIT ?) AS hits USING (\(ItemsTable.key)) ORDER BY name, \(ItemsTable.key)
            """
        let count = "SELECT count(*) FROM (\(rangeRows)) AS range_rows"
        var budget = ItemSearch.serverWalkBudget
        var found: [Item] = []
        for range in ranges {
            found += try connection.withStatement(walk) { statement in
                try statement.bindText(range.first, at: 0)
                try statement.bindText(range.end, at: 1)
                try statement.bind(budget, at: 2)
                try statement.bind(ItemQuery.containsPattern(term), at: 3)
                let next = try bindConditions(statement, 4)
                try statement.bind(wanted - found.count, at: next)
                var items: [Item] = []
                while try statement.step() { items.append(try ItemsTable.decode(statement)) }
                return items
            }
            if found.count == wanted { break }
            let read = try connection.withStatement(count) { statement in
                try statement.bindText(range.first, at: 0)
                try statement.bindText(range.end, at: 1)
                try statement.bind(budget, at: 2)
                _ = try statement.step()
                return statement.int(at: 0)
            }
            if read == budget { return nil }
            budget -= read
        }
        return Array(found.dropFirst(query.offset))
    }
}
