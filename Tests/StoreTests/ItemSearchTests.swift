import Foundation
import Inventory
import PostgresCore
import SQLiteCore
import StockroomMigrations
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// `items list --search TEXT` through the trigram indexes (issue 21) gives exactly what the
/// documented rule gives: names containing TEXT, ASCII letters in either case, every other
/// character exactly; ordered by name (UTF-8 bytes), then id; then offset and limit.
@Suite struct ItemSearchTests {
    /// Text as the rule compares it: UTF-8 with ASCII capitals as small letters. (A substring
    /// of the bytes is a substring of the characters: UTF-8 never starts a character mid-way.)
    static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    /// Today's rule, written without SQL: the oracle every plan is compared with.
    static func contains(_ name: String, _ term: String) -> Bool {
        contains(folded(name), folded(term))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                (0...(h.count - n.count)).contains { start in memcmp(h.baseAddress! + start, n.baseAddress!, n.count) == 0 }
            }
        }
    }

    /// Items in list order (name as UTF-8 bytes, then id), each with its folded name.
    static func ordered(_ items: [Item]) -> [(item: Item, folded: [UInt8])] {
        items.map { (item: $0, key: Array($0.name.utf8)) }
            .sorted { a, b in
                a.key == b.key ? a.item.id.lowercasedString < b.item.id.lowercasedString : a.key.lexicographicallyPrecedes(b.key)
            }
            .map { (item: $0.item, folded: folded($0.item.name)) }
    }

    static func expected(_ items: [Item], _ query: ItemQuery) -> [Item] {
        expected(ordered(items), query)
    }

    static func expected(_ ordered: [(item: Item, folded: [UInt8])], _ query: ItemQuery) -> [Item] {
        let needle = query.nameContains.map(folded)
        let matching = ordered.filter { entry in
            let item = entry.item
            return (needle.map { contains(entry.folded, $0) } ?? true)
                && (query.color.map { item.color == $0 } ?? true)
                && (query.status.map { status in
                    switch status {
                    case .inStock: item.status.isInStock
                    case .outOfStock: !item.status.isInStock
                    case .onBackOrder: item.status == .outOfStock(isOnBackOrder: true)
                    }
                } ?? true)
        }.map(\.item)
        let page = matching.dropFirst(query.offset)
        return Array(query.limit.map { page.prefix($0) } ?? page)
    }

    /// Pieces that names are made of: letters in both cases, LIKE's own `%`, `_` and `\`, FTS5's
    /// `"`, and characters whose Unicode case folding differs from ASCII's (É/é, ß, İ, the
    /// Kelvin sign K that folds to k, the titlecase ǅ, a combining accent, an emoji).
    static let pieces = ["ab", "AB", "aB", "Cd", "x", "Q", "%", "_", "\\", "\"", "É", "é", "ß", "İ", "i", "\u{212A}", "k",
                         "ǅ", "e\u{301}", "🎉", " ", "-", "0", "42", "Zz"]

    /// `count` items whose names share pieces so that terms match many, few or no names, in
    /// three groups: about a quarter start early in name order and contain "Common" in some
    /// letter case; the others start with "zz" (late in name order) and contain "Common" and
    /// "Late". On SQLite, with 6,000 items, "common" has more
    /// candidates than `ItemSearch.directCandidates` and its first matches come early (the
    /// bounded walk by name answers), "late" has as many but only after a quarter of the rows
    /// (the walk gives up and the index answers), and rarer terms go through the index directly.
    /// An INSERT of `items` in the columns of a schema as old as `schemaVersion` (before 0008's
    /// location): the current store writes the current columns only.
    static func insertSQL(_ items: [Item], schemaVersion: Int) -> String {
        precondition(schemaVersion < 8, "the current store inserts into a current schema")
        func literal(_ text: String?) -> String { text.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL" }
        let rows = items.map { item -> String in
            let (tag, quantity, flag): (String, String, String) = switch item.status {
            case .inStock(let quantity): ("in_stock", String(quantity), "NULL")
            case .outOfStock(let isOnBackOrder): ("out_of_stock", "NULL", isOnBackOrder ? "1" : "0")
            }
            return "(\(literal(item.id.lowercasedString)), \(literal(item.name)), \(literal(item.color?.rawValue)), '\(tag)', \(quantity), \(flag), "
                + "'2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z')"
        }
        return "INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES\n"
            + rows.joined(separator: ",\n") + ";"
    }

    static func items(count: Int, seed: UInt64) -> [Item] {
        var generator = SeededGenerator(state: seed)
        let commons = ["Common", "COMMON", "cOmMoN", "common"]
        let colors: [Color?] = [nil] + Color.allCases
        return (0..<count).map { index in
            func random(_ count: Int) -> String {
                (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let early = index % 4 == 0
            var name = early ? "A" + random(2) : "zz" + random(2)
            name += commons.randomElement(using: &generator)! + random(Int.random(in: 0...3, using: &generator))
            if !early { name += "Late" + random(1) }
            let status: Status = index % 3 == 0 ? .outOfStock(isOnBackOrder: index % 2 == 0) : .inStock(quantity: index + 1)
            return Item(name: name, color: colors.randomElement(using: &generator)!, status: status)
        }
    }

    /// Search terms: fixed ones for each plan and edge, then substrings of generated names with
    /// their ASCII letter case flipped at random (every such term matches at least one name).
    static func terms(for items: [Item], count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(state: seed)
        var terms = ["common", "COMMON", "late", "LATE", "mmo", "zzz", "nothing here", "", "a", "ab", "%", "_", "\\",
                     "%_%", "\"", "\"\"x", "ÉÉ", "éé", "é", "ss", "ß", "K", "\u{212A}", "İi", "e\u{301}", "🎉", "é\u{301}",
                     "abab", "AbAb", "%ab", "_Cd", "Late%", "n Lat"]
        while terms.count < count {
            let scalars = Array(items.randomElement(using: &generator)!.name.unicodeScalars)
            let length = Int.random(in: 1...min(8, scalars.count), using: &generator)
            let start = Int.random(in: 0...(scalars.count - length), using: &generator)
            var term = String.UnicodeScalarView()
            for scalar in scalars[start..<start + length] {
                let flip = Bool.random(using: &generator) && scalar.isASCII && scalar.properties.isAlphabetic
                term.append(flip ? Unicode.Scalar(UInt8(scalar.value ^ 0x20)) : scalar)
            }
            terms.append(String(term))
        }
        return terms
    }

    /// The pages asked of every term: no limit, and pages at the start and further in.
    static let pages: [(limit: Int?, offset: Int)] = [(nil, 0), (20, 0), (1, 0), (5, 3), (20, 100), (0, 0), (100, 7)]

    func compare(_ engine: Engine, itemCount: Int, termCount: Int) throws {
        let test = try TestStore(engine)
        let items = Self.items(count: itemCount, seed: 21)
        try test.store.items.insert(contentsOf: items)
        let ordered = Self.ordered(items)
        var checked = 0
        for (index, term) in Self.terms(for: items, count: termCount, seed: 5).enumerated() {
            for page in Self.pages {
                var query = ItemQuery(nameContains: term, limit: page.limit, offset: page.offset)
                // Every fifth term also filters, so the plans carry the other conditions along.
                if index % 5 == 1 { query.color = Color.allCases[index % Color.allCases.count] }
                if index % 5 == 2 { query.status = ItemQuery.StatusFilter.allCases[index % 3] }
                let found = try test.store.items.list(matching: query)
                let expected = Self.expected(ordered, query)
                #expect(found == expected, "term \(term.debugDescription), \(query)")
                checked += 1
            }
        }
        #expect(checked == termCount * Self.pages.count)
    }

    @Test func sqliteFindsExactlyWhatTheRuleFinds() throws {
        try compare(.sqlite, itemCount: 6_000, termCount: 60)
    }

    @Test func postgresFindsExactlyWhatTheRuleFinds() throws {
        try compare(.postgres, itemCount: 600, termCount: 60)
    }

    /// A double quote followed by a combining mark is one `Character` but two Unicode scalars:
    /// the search's FTS5 query must double the quote all the same (a `Character`-wise
    /// replacement left it single, and SQLite refused the query as an unterminated string).
    @Test(arguments: Engine.allCases)
    func aQuoteBeforeACombiningMarkIsSearchedForLiterally(_ engine: Engine) throws {
        let test = try TestStore(engine)
        try test.store.items.insert(contentsOf: Self.items(count: 20, seed: 5))
        let quoted = Item(name: "Say \"\u{301}doh\" twice")
        try test.store.items.insert(quoted)
        for term in ["\"\u{301}d", "y \"\u{301}do", "\"\u{301}doh\" t"] {
            #expect(try test.store.items.list(matching: ItemQuery(nameContains: term, limit: 20)).map(\.id) == [quoted.id],
                    "\(engine) \(term.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// Names have no length limit: a term whose trigrams lie only past the positions SQLite's
    /// triggers take from their table (1...256, migration 0010) is found all the same, in a
    /// name added that long and in one renamed to it.
    @Test(arguments: Engine.allCases)
    func aTermPastTheTableOfPositionsIsFound(_ engine: Engine) throws {
        let test = try TestStore(engine)
        try test.store.items.insert(contentsOf: Self.items(count: 20, seed: 7))
        let padding = String(repeating: "x", count: ItemsSearchPositionsTable.count + 40)
        let added = Item(name: "Long \(padding) Zebracorn 42")
        let renamed = Item(name: "Short")
        try test.store.items.insert(added)
        try test.store.items.insert(renamed)
        _ = try test.store.items.update(id: renamed.id, with: ItemEdit(name: "Renamed \(padding) Quagmonk 7"))
        for (term, expected) in [("Zebracorn 42", added.id), ("quagmonk", renamed.id)] {
            #expect(try test.store.items.list(matching: ItemQuery(nameContains: term, limit: 20)).map(\.id) == [expected], "\(engine) \(term)")
        }
    }

    /// A row written by hand in the engine's own shell is found, renamed and removed through
    /// the index: the database keeps the index (triggers on SQLite, the GIN index on PostgreSQL).
    @Test(arguments: Engine.allCases)
    func rowsWrittenInTheShellAreFound(_ engine: Engine) throws {
        let test = try TestStore(engine)
        try test.store.items.insert(contentsOf: Self.items(count: 50, seed: 3))
        let id = "01937a2b-0000-7000-8000-00000000abcd"
        let now = "'2026-11-25T10:00:00.000Z'"
        #expect(try test.shell("INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('\(id)', 'Hand Written Widget', NULL, 'in_stock', 3, NULL, \(now), \(now));").status == 0)
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "WRITTEN wid", limit: 20)).map(\.id.lowercasedString) == [id])
        #expect(try test.shell("UPDATE items SET name = 'Renamed Gadget' WHERE id = '\(id)';").status == 0)
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "written", limit: 20)).isEmpty)
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "ed gad", limit: 20)).map(\.id.lowercasedString) == [id])
        #expect(try test.shell("DELETE FROM items WHERE id = '\(id)';").status == 0)
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "gadget", limit: 20)).isEmpty)
        if engine == .sqlite {
            // FTS5's own check that the index holds exactly the names of `items`.
            #expect(try test.shell("INSERT INTO items_search (items_search) VALUES ('integrity-check');").status == 0)
        }
    }

    /// A database made before the index (migrations up to 3) gets it, built from its rows, when
    /// it is migrated.
    @Test func migratingAnExistingSQLiteDatabaseIndexesItsItems() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let items = Self.items(count: 300, seed: 9)
        do {
            let database = try Database(path: path)
            try MigrationRunner(database: database).migrate(upTo: 3)
        }
        #expect(try Processes.sqlite3(path, Self.insertSQL(items, schemaVersion: 3)).status == 0)
        #expect(try Processes.sqlite3(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'items_search';").output == "0")
        let store = try InventoryStore(path: path)
        let indexed = try Processes.sqlite3(path, "SELECT count(*) FROM items_search WHERE items_search MATCH '\"ate\"';").output
        #expect(Int(indexed) == items.filter { Self.contains($0.name, "ate") }.count)
        #expect(try Processes.sqlite3(path, "INSERT INTO items_search (items_search) VALUES ('integrity-check');").status == 0)
        for term in ["late", "common", "zz", "ÉÉ"] {
            let query = ItemQuery(nameContains: term, limit: 20)
            #expect(try store.items.list(matching: query) == Self.expected(items, query))
        }
    }

    @Test func migratingAnExistingPostgresDatabaseIndexesItsItems() throws {
        let schema = try PostgresScratchSchema()
        let items = Self.items(count: 200, seed: 9)
        try PostgresMigrationRunner(connection: try Connection(schema.uri)).migrate(upTo: 3)
        #expect(try schema.psql(Self.insertSQL(items, schemaVersion: 3)).status == 0)
        #expect(try schema.psql("SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'items_by_name_trigram';").output == "0")
        let store = try InventoryStore(location: .postgres(schema.uri))
        #expect(try schema.psql("SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'items_by_name_trigram';").output == "1")
        // The planner, told not to scan, answers from the index and its recheck alone.
        let plan = try schema.psql("SET enable_seqscan = off; SET enable_indexscan = off; EXPLAIN SELECT id FROM items WHERE name ILIKE '%late%';").output
        #expect(plan.contains("items_by_name_trigram"), "\(plan)")
        for term in ["late", "common", "zz", "ÉÉ"] {
            let query = ItemQuery(nameContains: term, limit: 20)
            #expect(try store.items.list(matching: query) == Self.expected(items, query))
        }
    }
}
