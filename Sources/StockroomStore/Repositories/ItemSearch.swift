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
/// the index after all, or, for a term in more than a quarter of the names, the walk to the
/// end. Each plan's cost stays within a small factor of the better one's, and terms of fewer
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
    /// The most index entries one chunk of the walk by name covers: the probe reads them, then
    /// the walk reads them again, and at about 60 entries a page, 8,192 entries stay within
    /// SQLite's default page cache (2 MB) between the two. Larger chunks read every page from
    /// the file twice (at 1M items, 'keyboard' took 5.5 ms against the scan's 2.1 ms).
    static let walkChunkCeiling = 8_192
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
    private func searchInSnapshot(_ match: String, _ query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        let candidates = try candidateCount(match, cap: ItemSearch.directCandidates)
        if candidates < ItemSearch.directCandidates {
            try forEachCandidate(match, query, body)
            return true
        }
        // A common term. Without a limit every match is read anyway: the walk in name order.
        guard let limit = query.limit else { return false }
        let wanted = limit.addingReportingOverflow(query.offset)
        if !wanted.overflow, wanted.partialValue <= ItemSearch.walkCeiling, let term = query.nameContains,
           let heads = try headsHolding(term) {
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

    /// The page `query` selects when its matches lie within the first `budget` rows it reads in
    /// name order (after the query's other conditions) from the ranges of `heads`, or when those
    /// ranges hold fewer rows than that; nil when the page might need rows past the budget.
    ///
    /// Names outside those ranges cannot match (``headsHolding(_:)``), so the walk skips them: a
    /// common term whose names all sort late starts where they start. Each range is walked in
    /// chunks, growing 4x up to ``ItemSearch/walkChunkCeiling``, so a dense term stops early: a probe finds the key `chunk`
    /// entries further (OFFSET, which SQLite skips without evaluating anything), then one
    /// statement walks up to that key with the LIKE rule in its WHERE, stopping at the page's
    /// last match. Both run inside SQLite; stepping every entry out to Swift, or yielding it
    /// from a subquery, cost 3-6x as much per entry. The page's rows are then read by rowid.
    private func walkedItems(_ query: ItemQuery, limit: Int, budget: Int, heads: [String]) throws -> [Item]? {
        guard let term = query.nameContains else { return nil }
        guard limit > 0 else { return [] }
        let wanted = query.offset + limit
        var others = query
        others.nameContains = nil
        let (conditions, bindConditions): ([String], (Connection.Statement, Int) throws -> Int) = others.conditions(connection.dialect)
        let prefix = conditions.map { $0 + " AND " }.joined()
        // The chunk starts at the head, or after the last key of the chunk before; it ends at
        // the range's end or at the probe's key. (One upper bound only: given two, SQLite
        // bounds the index range by one and checks the other on every entry up to the first.)
        let fromHead = "\(prefix)name >= ?"
        let fromKey = "\(prefix)name >= ? AND (name > ? OR id > ?)"
        let rule = ItemQuery.containsCondition(connection.dialect)
        var found: [Int] = []
        var left = budget
        for head in heads {
            guard let end = ItemSearch.successor(of: head) else { return nil }
            var after: (name: String, id: String)?
            var chunk = min(left, max(wanted * 64, 1_024), ItemSearch.walkChunkCeiling)
            // Binds the chunk's start; returns the next parameter.
            func bindStart(_ statement: Connection.Statement) throws -> Int {
                let next = try bindConditions(statement, 0)
                guard let after else {
                    try statement.bind(head, at: next)
                    return next + 1
                }
                try statement.bind(after.name, at: next)
                try statement.bind(after.name, at: next + 1)
                try statement.bind(after.id, at: next + 2)
                return next + 3
            }
            // Binds the range's end after the start; returns the next parameter.
            func bindToEnd(_ statement: Connection.Statement) throws -> Int {
                let next = try bindStart(statement)
                try statement.bind(end, at: next)
                return next + 1
            }
            while true {
                let start = after == nil ? fromHead : fromKey
                let bound: (name: String, id: String)? = try connection.withStatement(
                    "SELECT name, id FROM \(ItemsTable.name) WHERE \(start) AND name < ? ORDER BY name, id LIMIT 1 OFFSET ?"
                ) { statement in
                    try statement.bind(chunk - 1, at: try bindToEnd(statement))
                    return try statement.step() ? (statement.text(at: 0), statement.text(at: 1)) : nil
                }
                let upTo = bound == nil ? " AND name < ?" : " AND name <= ? AND (name < ? OR id <= ?)"
                found += try connection.withStatement(
                    "SELECT rowid FROM \(ItemsTable.name) WHERE \(start)\(upTo) AND \(rule) ORDER BY name, id LIMIT ?"
                ) { statement in
                    var next = try bound == nil ? bindToEnd(statement) : bindStart(statement)
                    if let bound {
                        try statement.bind(bound.name, at: next)
                        try statement.bind(bound.name, at: next + 1)
                        try statement.bind(bound.id, at: next + 2)
                        next += 3
                    }
                    try statement.bind(ItemQuery.containsPattern(term), at: next)
                    try statement.bind(wanted - found.count, at: next + 1)
                    var rowids: [Int] = []
                    while try statement.step() { rowids.append(statement.int(at: 0)) }
                    return rowids
                }
                if found.count == wanted { break }
                guard let bound else {
                    // The rest of the range held fewer entries than the chunk: take them from
                    // the budget and go on with the next head.
                    left -= try connection.withStatement("SELECT count(*) FROM \(ItemsTable.name) WHERE \(start) AND name < ?") { statement in
                        _ = try bindToEnd(statement)
                        _ = try statement.step()
                        return statement.int(at: 0)
                    }
                    break
                }
                left -= chunk
                guard left > 0 else { return nil }
                after = bound
                chunk = min(left, chunk * 4, ItemSearch.walkChunkCeiling)
            }
            if found.count == wanted { break }
        }
        // Read in the walk's snapshot, so every row is still there (a missing one is left out).
        return try found.dropFirst(query.offset).compactMap { rowid in
            try connection.withStatement("\(ItemsTable.selectAll) WHERE rowid = ?") { statement in
                try statement.bind(rowid, at: 0)
                return try statement.step() ? try ItemsTable.decode(statement) : nil
            }
        }
    }
}
