import Inventory

/// How `items list --search TEXT` finds its rows without reading every item (issue 21), on
/// both engines.
///
/// The rule is ``ItemQuery/nameContains``'s and nothing else: a name matches when the engine's
/// `name LIKE '%TEXT%' ESCAPE '\'` (ILIKE over `COLLATE "C"` on PostgreSQL) says so: ASCII
/// letters in either case, every other character exactly. The indexes only narrow where to
/// look; every name a plan reads is checked with that same condition, so every plan returns
/// exactly the rows, in exactly the order (name, then id), of a full scan.
///
/// What narrows:
/// - **the search ranges** (``ItemsSearchRangesTable``, migration 0007 on both engines): for
///   each head (first two characters) holding every trigram of TEXT, the names between the
///   latest first name and the earliest last name of those trigrams. Names outside them cannot
///   match. No range at all means no match, known without reading a name.
/// - **the trigram index**: FTS5's `trigram` tokenizer on SQLite (`items_search`, 0005), whose
///   candidates are read by rowid; pg_trgm's GIN index on PostgreSQL (0005), which the
///   server's planner uses for the plain statement.
///
/// Plans, for `--limit N` (+ `--offset`): a **walk** along `items_by_name` over the ranges,
/// stopping at the N-th match, cheap when matches are dense in the ranges (a common term,
/// wherever its names sort); or the **candidates** of the trigram index, fetched and sorted,
/// cheap when there are few. Each engine chooses between them its own way (the engines'
/// `ItemSearch+<engine>.swift`). Terms of fewer than 3 characters keep the plain scan.
enum ItemSearch {
    /// The trigram indexes find terms of at least this many characters (Unicode scalars).
    static let minimumLength = 3
    /// At most this many trigrams of a long term are looked up: each costs a doclist or a
    /// range to read, and every name is checked with the LIKE anyway.
    static let trigramCeiling = 12
    /// The most rows of a page (offset + limit) that a walk serves; a page further in takes
    /// the plain statement.
    static let walkCeiling = 60_000

    /// The FTS5 query proposing the names that contain `term`: its distinct trigrams, each a
    /// quoted string, all required (AND). Nil when the index cannot serve the term: fewer than
    /// 3 characters, or a NUL, where FTS5's query parser would stop reading.
    static func trigramQuery(_ term: String) -> String? {
        // An FTS5 string is quoted as an SQL identifier is: a double quote inside is written
        // twice, and nothing else is special.
        trigrams(term)?.map(SQLIdentifier.quoted).joined(separator: " AND ")
    }

    /// The distinct runs of 3 Unicode scalars of `term` (the engines' characters), at most
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

    /// The names, within one head, that can hold a term: from `first` (inclusive) up to `end`
    /// (exclusive), as UTF-8 bytes, the order both engines compare names in. Kept as bytes, not
    /// `String`: a name written by hand in the sqlite3 shell may not be valid UTF-8, and
    /// repairing it would move the bound past names that match.
    struct NameRange: Equatable {
        let first: [UInt8]
        let end: [UInt8]

        /// The range of names from `first` on that begin with `lastStart` or sort before it;
        /// nil when no text sorts after every name beginning with `lastStart`.
        init?(first: [UInt8], lastStart: [UInt8]) {
            guard let end = ItemSearch.successor(of: lastStart) else { return nil }
            self.first = first
            self.end = end
        }
    }

    /// The least text greater than every text beginning with `start`, in byte order (SQLite's
    /// BINARY, PostgreSQL's "C"; for UTF-8, code point order): `start` with its last character
    /// one higher (past the surrogates), so the bound is valid text for a server; for bytes
    /// that are not UTF-8 (a hand-written SQLite name), the last byte below 0xFF one higher.
    /// Nil when there is none (every character U+10FFFF, every byte 0xFF).
    static func successor(of start: [UInt8]) -> [UInt8]? {
        if let text = String(validating: start, as: UTF8.self) {
            var scalars = Array(text.unicodeScalars)
            while let last = scalars.popLast() {
                let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
                if let scalar = Unicode.Scalar(next) {
                    scalars.append(scalar)
                    var successor = String.UnicodeScalarView()
                    successor.append(contentsOf: scalars)
                    return Array(String(successor).utf8)
                }
            }
            return nil
        }
        var bytes = start
        while let last = bytes.popLast() {
            if last < 0xFF { return bytes + [last + 1] }
        }
        return nil
    }
}

extension ItemRecords {
    /// Calls `body` with the items of `query` through the search's indexes, in name then id
    /// order, and returns true; false (having called nothing) when they cannot serve this query
    /// and the plain statement must run.
    func forEachSearchedItem(matching query: ItemQuery, _ body: (Item) throws -> Void) throws -> Bool {
        guard let term = query.nameContains, ItemSearch.trigrams(term) != nil else { return false }
        // One snapshot for what picks the plan and the rows the plan reads: a writer in
        // between could otherwise make a page skip or repeat a row.
        return try connection.inReadTransaction {
            switch connection.dialect {
            case .sqlite: try searchInSQLiteSnapshot(term, query, body)
            case .postgres: try searchInServerSnapshot(term, query, body)
            }
        }
    }

    /// The name ranges that can hold `term`'s matches, one per head holding all its trigrams,
    /// in name order (empty: nothing matches); nil when a range has no end. The caller has
    /// checked that the database has ``ItemsSearchRangesTable`` (a reader never migrates, so a
    /// file from before 0007 is read as it is), in the same snapshot, so a migration committing
    /// meanwhile cannot split the answer from the reads.
    func nameRanges(holding term: String) throws -> [ItemSearch.NameRange]? {
        guard let trigrams = ItemSearch.trigrams(ItemsSearchRangesTable.folded(term)) else { return nil }
        return try connection.withStatement(ItemsSearchRangesTable.rangesSQL(trigramCount: trigrams.count)) { statement in
            for (index, trigram) in trigrams.enumerated() { try statement.bind(trigram, at: index) }
            var ranges: [ItemSearch.NameRange] = []
            while try statement.step() {
                let first = statement.withText(at: 0) { Array($0) }
                guard let range = ItemSearch.NameRange(first: first, lastStart: statement.withText(at: 1) { Array($0) }) else {
                    return nil
                }
                ranges.append(range)
            }
            return ranges
        }
    }
}
