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
/// - **walking by name**: the `items_by_name` order, checked entry by entry inside SQLite,
///   stopping at the N-th match, over only the name ranges that can hold a match: those of the
///   heads (first two characters) that `items_search_heads` (Migrations/sqlite/
///   0006_name_search_heads.sql) lists for every trigram of the term. Its cost grows with how
///   many entries of those ranges lie before the N-th match: tiny for a common term, whether
///   its names sort early or late, a long walk for a rare one.
/// The choice: count the candidates up to ``directCandidates``; below that, through the index
/// (it sorts fewer than that many rows). Otherwise the term is common: walk by name, but only so
/// far (``walkBudget(limit:rows:candidates:)``, several times the distance at which N matches
/// would be expected); when the matches are sparser than that within the ranges walked, through
/// the index after all, or, for a term with ``walkInsteadOfSorting`` candidates or more (a
/// quarter of a million-item file), the walk to the end. Each plan's cost stays within a small factor of the better one's, and terms of fewer
/// than 3 characters keep the plain scan.
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
    /// SQLite virtual-machine instructions the walk by name spends per index entry it reads
    /// (5 measured with the sqlite3 shell's `.stats` on 1M items: 135,234 for 27,018 entries),
    /// rounded up: the walk's budget in entries becomes a budget in instructions.
    static let walkInstructionsPerEntry = 6
    /// At most this many trigrams of a long term go into the index query: each costs a doclist
    /// to read, and the candidates are checked with LIKE anyway.
    static let trigramCeiling = 12

    /// The FTS5 query proposing the names that contain `term`: its distinct trigrams, each a
    /// quoted string, all required (AND). Nil when the index cannot serve the term: fewer than
    /// 3 characters, or a NUL, where FTS5's query parser would stop reading.
    static func trigramQuery(_ term: String) -> String? {
        // Inside an FTS5 string, a double quote is written twice; nothing else is special.
        trigrams(term)?.map { "\"" + $0.replacingAll("\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }

    /// The distinct runs of 3 Unicode scalars of `term` (SQLite's characters), at most
    /// ``trigramCeiling``; nil when the index cannot serve the term (see ``trigramQuery(_:)``).
    static func trigrams(_ term: String) -> [String]? {
        let scalars = Array(term.unicodeScalars)
        guard scalars.count >= minimumLength, !scalars.contains("\u{0}") else { return nil }
        var seen = Set<String>()
        var trigrams: [String] = []
        for start in 0...(scalars.count - minimumLength) where trigrams.count < trigramCeiling {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + minimumLength])
            let text = String(trigram)
            if seen.insert(text).inserted { trigrams.append(text) }
        }
        return trigrams
    }

    /// The least text greater than every text starting with `head` (in SQLite's BINARY order,
    /// which is code point order): `head` with its last scalar one higher, past the surrogates.
    /// Nil when no such text exists (every scalar is U+10FFFF).
    static func successor(of head: String) -> String? {
        var scalars = Array(head.unicodeScalars)
        while let last = scalars.popLast() {
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars)
                return String(text)
            }
        }
        return nil
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
    ///
    /// A file is read as it is: a reader never migrates, so a file from before 0005 has no
    /// trigram index (the plain scan serves it) and one from before 0006 no heads (the walk is
    /// left out). Asked in the snapshot, so a migration committing meanwhile cannot split the
    /// answer from the reads.
    private func searchInSnapshot(_ match: String, _ query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        guard try connection.tableExists(ItemsSearchTable.name) else { return false }
        let candidates = try candidateCount(match, cap: ItemSearch.directCandidates)
        if candidates < ItemSearch.directCandidates {
            try forEachCandidate(match, query, body)
            return true
        }
        // A common term. Without a limit every match is read anyway: the walk in name order.
        guard let limit = query.limit else { return false }
        let wanted = limit.addingReportingOverflow(query.offset)
        if !wanted.overflow, wanted.partialValue <= ItemSearch.walkCeiling, let term = query.nameContains,
           try connection.tableExists(ItemsSearchHeadsTable.name), let heads = try headsHolding(term) {
            let budget = ItemSearch.walkBudget(limit: wanted.partialValue, rows: try rowCountEstimate(), candidates: candidates)
            if let items = try walkedItems(query, limit: limit, budget: budget, heads: heads) {
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

    /// The heads (``ItemsSearchHeadsTable``) that have a name holding every trigram of `term`,
    /// in name order: only names starting with one of them can contain `term`. Nil when the
    /// term has no trigram.
    private func headsHolding(_ term: String) throws -> [String]? {
        guard let trigrams = ItemSearch.trigrams(term) else { return nil }
        // lower() on both sides: the table's trigrams were folded by the same function.
        let one = "SELECT head FROM \(ItemsSearchHeadsTable.name) WHERE trigram = lower(?)"
        let sql = Array(repeating: one, count: trigrams.count).joined(separator: " INTERSECT ") + " ORDER BY head"
        return try connection.withStatement(sql) { statement in
            for (index, trigram) in trigrams.enumerated() { try statement.bind(trigram, at: index) }
            var heads: [String] = []
            while try statement.step() { heads.append(statement.text(at: 0)) }
            return heads
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
    /// reads in name order (after the query's other conditions) from the ranges of `heads`, or
    /// when those ranges hold fewer rows than that; nil when the page might need rows past it.
    ///
    /// Names outside those ranges cannot match (``headsHolding(_:)``), so the walk skips them: a
    /// common term whose names all sort late starts where they start. Each range is one
    /// statement with the LIKE rule in its WHERE, run by SQLite, stopping at the page's last
    /// match; SQLite itself counts the work against the budget
    /// (``ItemSearch/walkInstructionsPerEntry`` instructions an entry) and stops the walk when
    /// it is spent. One pass: bounding the walk by key first (a probe with OFFSET) read every
    /// entry twice, and stepping each entry out to Swift cost 13-20% more (BENCHMARKS.md, W11).
    /// The page's rows are then read by rowid.
    private func walkedItems(_ query: ItemQuery, limit: Int, budget: Int, heads: [String]) throws -> [Item]? {
        guard let term = query.nameContains else { return nil }
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
            for head in heads {
                guard let end = ItemSearch.successor(of: head) else { return nil }
                found += try connection.withStatement(walk) { statement in
                    let next = try bindConditions(statement, 0)
                    try statement.bind(head, at: next)
                    try statement.bind(end, at: next + 1)
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
