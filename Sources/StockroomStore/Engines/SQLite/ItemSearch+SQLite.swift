import Inventory

/// The search's plans on SQLite (see ``ItemSearch``): the FTS5 trigram index `items_search`
/// proposes candidates, read by rowid; the walk along `items_by_name` covers the name ranges,
/// its work counted by SQLite itself.
///
/// The choice: no range at all, no match. Otherwise count the candidates up to
/// ``ItemSearch/directCandidates``; below that, through the index (it sorts fewer than that many
/// rows). Otherwise the term is common: walk the ranges, but only so far
/// (``ItemSearch/walkBudget(limit:rows:candidates:)``, several times the distance at which N
/// matches would be expected); when the matches are sparser than that, through the index after
/// all, or, for a term with ``ItemSearch/walkInsteadOfSorting`` candidates or more (a quarter of
/// a million-item file), the plain statement, whose walk goes to the end. Each plan's cost stays
/// within a small factor of the better one's.
extension ItemSearch {
    /// Below this many candidates, sorting them all is cheaper than any walk.
    static let directCandidates = 4_096
    /// Past this many candidates the full walk by name beats sorting them (the walk reads each
    /// index entry once; each candidate costs a row lookup and a sort insert, about 3x as much).
    static let walkInsteadOfSorting = 250_000
    /// How many times the expected distance to the N-th match the walk may go.
    static let walkSlack = 8
    /// SQLite virtual-machine instructions the walk by name spends per index entry it reads
    /// (5 measured with the sqlite3 shell's `.stats` on 1M items: 135,234 for 27,018 entries),
    /// rounded up: the walk's budget in entries becomes a budget in instructions.
    static let walkInstructionsPerEntry = 6

    /// How many rows in name order the walk reads before giving up: `walkSlack` times the
    /// distance at which `limit` matches would lie if the (at least) `candidates` matches of
    /// `rows` were spread evenly, at least `limit`, at most ``walkCeiling``.
    static func walkBudget(limit: Int, rows: Int, candidates: Int) -> Int {
        let expected = limit.multipliedReportingOverflow(by: max(rows, 1) / max(candidates, 1) + 1)
        guard !expected.overflow else { return walkCeiling }
        return min(max(expected.partialValue.multipliedReportingOverflow(by: walkSlack).partialValue, limit), walkCeiling)
    }
}

extension ItemRecords {
    /// ``forEachSearchedItem(matching:_:)`` on SQLite, inside its snapshot.
    ///
    /// A file is read as it is: a reader never migrates, so a file from before 0005 has no
    /// trigram index (the plain scan serves it) and one from before 0007 no search ranges (the
    /// walk is left out).
    func searchInSQLiteSnapshot(_ term: String, _ query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        guard try connection.tableExists(ItemsSearchTable.name), let match = ItemSearch.trigramQuery(term) else { return false }
        let ranges = try connection.tableExists(ItemsSearchRangesTable.name) ? try nameRanges(holding: term) : nil
        if ranges?.isEmpty == true { return true }
        let candidates = try candidateCount(match, cap: ItemSearch.directCandidates)
        if candidates < ItemSearch.directCandidates {
            try forEachCandidate(match, query, body)
            return true
        }
        // A common term. Without a limit every match is read anyway: the walk in name order.
        guard let limit = query.limit else { return false }
        let wanted = limit.addingReportingOverflow(query.offset)
        if !wanted.overflow, wanted.partialValue <= ItemSearch.walkCeiling, let ranges {
            let budget = ItemSearch.walkBudget(limit: wanted.partialValue, rows: try rowCountEstimate(), candidates: candidates)
            if let items = try walkedItems(term, query, limit: limit, budget: budget, ranges: ranges) {
                for item in items { try body(item) }
                return true
            }
        }
        guard try candidateCount(match, cap: ItemSearch.walkInsteadOfSorting) < ItemSearch.walkInsteadOfSorting else { return false }
        try forEachCandidate(match, query, body)
        return true
    }

    /// How many rows the index proposes for `match`, counting no further than `cap`.
    private func candidateCount(_ match: String, cap: Int) throws -> Int {
        try connection.withStatement("SELECT count(*) FROM (SELECT rowid FROM \(ItemsSearchTable.name) WHERE \(ItemsSearchTable.name) MATCH ? LIMIT ?)") { statement in
            try statement.bind(match, at: 0)
            try statement.bind(cap, at: 1)
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// About how many items there are: the greatest rowid, read from the end of the table's
    /// B-tree without counting (it only sizes the walk).
    private func rowCountEstimate() throws -> Int {
        try connection.withStatement("SELECT coalesce(max(rowid), 0) FROM \(ItemsTable.name)") { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// The rows `query` selects among the index's candidates: the candidates drive the join
    /// (CROSS JOIN keeps that order), each is checked with the LIKE rule and the query's other
    /// conditions, and the survivors are sorted.
    private func forEachCandidate(_ match: String, _ query: ItemQuery, _ body: (Item) throws -> Void) throws {
        let (conditions, bindConditions): ([String], (Connection.Statement, Int) throws -> Int) = query.conditions(connection.dialect)
        let sql = """
            SELECT \(ItemsTable.selectColumns) FROM (SELECT rowid AS candidate FROM \(ItemsSearchTable.name) WHERE \(ItemsSearchTable.name) MATCH ?) \
            CROSS JOIN \(ItemsTable.name) ON \(ItemsTable.name).rowid = candidate WHERE \(conditions.joined(separator: " AND ")) \
            ORDER BY name, id LIMIT ? OFFSET ?
            """
        try connection.withStatement(sql) { statement in
            try statement.bind(match, at: 0)
            let next = try bindConditions(statement, 1)
            try connection.bindLimit(query.limit, to: statement, at: next)
            try statement.bind(query.offset, at: next + 1)
            while try statement.step() {
                try body(try ItemsTable.decode(statement))
            }
        }
    }

    /// The page `query` selects when its matches lie within about the first `budget` rows it
    /// reads in name order (after the query's other conditions) from `ranges`, or when those
    /// ranges hold fewer rows than that; nil when the page might need rows past it.
    ///
    /// Names outside the ranges cannot match (``nameRanges(holding:)``), so the walk skips them.
    /// Each range is one statement with the LIKE rule in its WHERE, run by SQLite, stopping at
    /// the page's last match; SQLite itself counts the work against the budget
    /// (``ItemSearch/walkInstructionsPerEntry`` instructions an entry) and stops the walk when
    /// it is spent. One pass: bounding the walk by key first (a probe with OFFSET) read every
    /// entry twice, and stepping each entry out to Swift cost 13-20% more (BENCHMARKS.md, W11).
    /// The page's rows are then read by rowid.
    private func walkedItems(_ term: String, _ query: ItemQuery, limit: Int, budget: Int, ranges: [ItemSearch.NameRange]) throws -> [Item]? {
        guard limit > 0 else { return [] }
        let wanted = query.offset + limit
        var others = query
        others.nameContains = nil
        let (conditions, bindConditions): ([String], (Connection.Statement, Int) throws -> Int) = others.conditions(connection.dialect)
        let range = (conditions + ["name >= ? AND name < ?", ItemQuery.containsCondition(connection.dialect)]).joined(separator: " AND ")
        let walk = "SELECT rowid FROM \(ItemsTable.name) WHERE \(range) ORDER BY name, id LIMIT ?"
        let instructions = budget.multipliedReportingOverflow(by: ItemSearch.walkInstructionsPerEntry)
        let found: [Int]? = try connection.withInstructionBudget(instructions.overflow ? Int.max : instructions.partialValue) {
            var found: [Int] = []
            for nameRange in ranges {
                found += try connection.withStatement(walk) { statement in
                    let next = try bindConditions(statement, 0)
                    try statement.bindText(nameRange.first, at: next)
                    try statement.bindText(nameRange.end, at: next + 1)
                    try statement.bind(ItemQuery.containsPattern(term), at: next + 2)
                    try statement.bind(wanted - found.count, at: next + 3)
                    var rowids: [Int] = []
                    while try statement.step() { rowids.append(statement.int(at: 0)) }
                    return rowids
                }
                if found.count == wanted { break }
            }
            return found
        } ?? nil
        guard let found else { return nil }
        // Read in the walk's snapshot, so every row is still there (a missing one is left out).
        return try found.dropFirst(query.offset).compactMap { rowid in
            try connection.withStatement("\(ItemsTable.selectAll) WHERE rowid = ?") { statement in
                try statement.bind(rowid, at: 0)
                return try statement.step() ? try ItemsTable.decode(statement) : nil
            }
        }
    }
}
