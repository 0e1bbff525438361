import Inventory

/// How `items list --search TEXT` finds its rows on SQLite without reading every item (issue 21).
///
/// The rule is ``ItemQuery/nameContains``'s and nothing else: a name matches when SQLite's
/// `name LIKE '%TEXT%' ESCAPE '\'` says so (ASCII letters in either case, every other character
/// exactly). The trigram index `items_search` (Migrations/sqlite/0005_name_search.sql) only proposes
/// candidates: its own case folding is Unicode-wide, so it may propose more names than match,
/// never fewer, and every row it proposes is checked with that same LIKE. So every plan below
/// returns exactly the rows, in exactly the order (name, then id), of a full scan.
///
/// Two plans, each fast where the other is slow, for `--limit N` (+ `--offset`) on many rows:
/// - **through the index**: the candidates' rows by rowid, checked, sorted, first N. Its cost
///   grows with the number of candidates: ideal for a rare term, slow for one in every 16 names.
/// - **walking by name**: the `items_by_name` order, checked row by row, stopping at the N-th
///   match. Its cost grows with how far the N-th match lies: tiny for a common term spread
///   through the names, a full scan for a rare one.
/// The choice: count the candidates up to ``directCandidates``; below that, through the index
/// (it sorts fewer than that many rows). Otherwise the term is common: walk by name, but only so
/// far (``walkBudget(limit:rows:candidates:)``, several times the distance at which N matches
/// would be expected); when the matches lie later in name order than that (a common term that
/// names starting late in the alphabet share), through the index after all, or, for a term in
/// more than a quarter of the names, the walk to the end. Each plan's cost stays within a small
/// factor of the better one's, and terms of fewer than 3 characters keep the plain scan.
enum ItemSearch {
    /// FTS5's trigram index finds terms of at least this many characters (Unicode scalars).
    static let minimumLength = 3
    /// Below this many candidates, sorting them all is cheaper than any walk.
    static let directCandidates = 4_096
    /// Past this many candidates the full walk by name beats sorting them (the walk reads each
    /// index entry once; each candidate costs a row lookup and a sort insert, about 3x as much).
    static let walkInsteadOfSorting = 250_000
    /// How many times the expected distance to the N-th match the walk may go.
    static let walkSlack = 8
    /// The most rows a bounded walk reads before handing over to the index.
    static let walkCeiling = 60_000
    /// At most this many trigrams of a long term go into the index query: each costs a doclist
    /// to read, and the candidates are checked with LIKE anyway.
    static let trigramCeiling = 12

    /// The FTS5 query proposing the names that contain `term`: its distinct trigrams, each a
    /// quoted string, all required (AND). Nil when the index cannot serve the term: fewer than
    /// 3 characters, or a NUL, where FTS5's query parser would stop reading.
    static func trigramQuery(_ term: String) -> String? {
        let scalars = Array(term.unicodeScalars)
        guard scalars.count >= minimumLength, !scalars.contains("\u{0}") else { return nil }
        var seen = Set<String>()
        var terms: [String] = []
        for start in 0...(scalars.count - minimumLength) where terms.count < trigramCeiling {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + minimumLength])
            let text = String(trigram)
            guard seen.insert(text).inserted else { continue }
            // Inside an FTS5 string, a double quote is written twice; nothing else is special.
            terms.append("\"" + text.replacingAll("\"", with: "\"\"") + "\"")
        }
        return terms.joined(separator: " AND ")
    }

    /// How many rows in name order the walk reads before giving up: `walkSlack` times the
    /// distance at which `limit` matches would lie if the (at least) `candidates` matches of
    /// `rows` were spread evenly, at least `limit`, at most ``walkCeiling``.
    static func walkBudget(limit: Int, rows: Int, candidates: Int) -> Int {
        let expected = limit.multipliedReportingOverflow(by: max(rows, 1) / max(candidates, 1) + 1)
        guard !expected.overflow else { return walkCeiling }
        return min(max(expected.partialValue.multipliedReportingOverflow(by: walkSlack).partialValue, limit), walkCeiling)
    }
}

extension String {
    /// `self` with every `target` character replaced (FoundationEssentials-free).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

extension ItemRecords {
    /// Calls `body` with the items of `query` through the trigram index, in name then id order,
    /// and returns true; false (having called nothing) when the index cannot serve this query and
    /// the plain scan must run.
    func forEachSearchedItem(matching query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        guard connection.dialect == .sqlite, let term = query.nameContains,
              let match = ItemSearch.trigramQuery(term) else { return false }
        // One snapshot for the count that picks the plan and the rows the plan reads: a writer
        // in between could otherwise make a page skip or repeat a row.
        return try connection.inReadTransaction { try searchInSnapshot(match, query, body) }
    }

    /// ``forEachSearchedItem(matching:_:)`` inside its snapshot.
    private func searchInSnapshot(_ match: String, _ query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        let candidates = try candidateCount(match, cap: ItemSearch.directCandidates)
        if candidates < ItemSearch.directCandidates {
            try forEachCandidate(match, query, body)
            return true
        }
        // A common term. Without a limit every match is read anyway: the walk in name order.
        guard let limit = query.limit else { return false }
        let wanted = limit.addingReportingOverflow(query.offset)
        if !wanted.overflow, wanted.partialValue <= ItemSearch.walkCeiling {
            let budget = ItemSearch.walkBudget(limit: wanted.partialValue, rows: try rowCountEstimate(), candidates: candidates)
            if let items = try walkedItems(query, limit: limit, budget: budget) {
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

    /// The page `query` selects when its matches lie within the first `budget` rows in name
    /// order (after the query's other conditions), or when those rows are all there are; nil
    /// when the page might need rows past the budget.
    ///
    /// The walk reads index entries only (rowid, and LIKE applied to the name the index holds)
    /// and stops at the page's last match, so a common term costs only the distance to it; the
    /// page's rows are then read by rowid.
    private func walkedItems(_ query: ItemQuery, limit: Int, budget: Int) throws -> [Item]? {
        guard let term = query.nameContains else { return nil }
        guard limit > 0 else { return [] }
        var others = query
        others.nameContains = nil
        let (conditions, bindConditions): ([String], (Connection.Statement, Int) throws -> Int) = others.conditions(connection.dialect)
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let walk = "SELECT rowid, \(ItemQuery.containsCondition(connection.dialect)) FROM \(ItemsTable.name)\(filter) ORDER BY name, id LIMIT ?"
        let found: [Int]? = try connection.withStatement(walk) { statement in
            try statement.bind(ItemQuery.containsPattern(term), at: 0)
            let next = try bindConditions(statement, 1)
            try statement.bind(budget, at: next)
            var rowids: [Int] = []
            var read = 0, skipped = 0
            while try statement.step() {
                read += 1
                guard statement.int(at: 1) == 1 else { continue }
                if skipped < query.offset {
                    skipped += 1
                    continue
                }
                rowids.append(statement.int(at: 0))
                if rowids.count == limit { return rowids }
            }
            // Fewer rows than the budget: the walk reached the end, so every match was seen.
            return read < budget ? rowids : nil
        }
        guard let found else { return nil }
        // Read in the walk's snapshot, so every row is still there (a missing one is left out).
        return try found.compactMap { rowid in
            try connection.withStatement("\(ItemsTable.selectAll) WHERE rowid = ?") { statement in
                try statement.bind(rowid, at: 0)
                return try statement.step() ? try ItemsTable.decode(statement) : nil
            }
        }
    }
}
