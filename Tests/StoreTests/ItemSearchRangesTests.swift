import Foundation
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The walk through the name ranges of `items_search_ranges` (migration 0007, ItemSearch.swift)
/// gives exactly what a plain LIKE scan gives, on a real file and a real server: common terms
/// whose matches all sort late, matches spread thinly over several heads (so the walk's budget
/// carries from range to range), names that tie, pages further in, and rows written, renamed
/// and deleted in the engine's own shell.
@Suite struct ItemSearchRangesTests {
    /// The rule as SQL, the statement `items list --search` ran before any index, run in the
    /// engine's shell: the oracle.
    static func scan(_ test: TestStore, _ term: String, limit: Int, offset: Int) throws -> [String] {
        let pattern = ItemQuery.containsPattern(term).replacingOccurrences(of: "'", with: "''")
        let like = test.engine == .sqlite ? "LIKE" : "ILIKE"
        let result = try test.shell("SELECT id FROM items WHERE name \(like) '\(pattern)' ESCAPE '\\' ORDER BY name, id LIMIT \(limit) OFFSET \(offset);")
        #expect(result.status == 0, "\(result.stderr)")
        return result.output.split(separator: "\n").map(String.init)
    }

    /// 25,530 items: 2,000 early names ("Aa", "Ab" ...) without the common words; 5,000 late ones
    /// ("Zy", "Zz") that all hold "Sturdy" in some letter case, a fifth of them with the same
    /// name (ties, broken by id); 4,530 whose "abcd" candidates mostly do not match; 2,000
    /// spread over twenty heads, of which one in ten holds "thin" (fewer matches per range than
    /// a page). Enough candidates for the walk plans.
    static func items() -> [Item] {
        var generator = SeededGenerator(state: 6)
        let sturdy = ["Sturdy", "STURDY", "sTuRdY", "sturdy"]
        var items: [Item] = []
        for index in 0..<2_000 {
            items.append(Item(name: "A\(Character(Unicode.Scalar(97 + index % 26)!)) early \(index)", status: .inStock(quantity: 1)))
        }
        for index in 0..<5_000 {
            let head = index % 2 == 0 ? "Zy" : "Zz"
            let name = index % 5 == 0 ? "Zz tie \(sturdy[0]) lamp" : "\(head) \(sturdy.randomElement(using: &generator)!) \(Int.random(in: 0..<100_000, using: &generator))"
            items.append(Item(name: name, status: index % 3 == 0 ? .outOfStock(isOnBackOrder: true) : .inStock(quantity: 2)))
        }
        // Candidates that do not match ("abc" and "bcd" apart) first in name order, then the
        // few matches of "abcd": the walk spends its budget and the candidates answer.
        for index in 0..<4_500 {
            items.append(Item(name: "Qa abc-bcd \(index)", status: .inStock(quantity: 4)))
        }
        for index in 0..<30 {
            items.append(Item(name: "Qb ABCD \(index)", status: .inStock(quantity: 4)))
        }
        for index in 0..<2_000 {
            let head = "M\(Character(Unicode.Scalar(97 + index % 20)!))"
            items.append(Item(name: "\(head) \(index % 10 == 0 ? "thin" : "wide") \(index)", status: .inStock(quantity: 3)))
        }
        // One head whose "markup" range spans nearly all of its 12,000 names for 8 matches: the
        // walk spends its budget (PostgreSQL's 4,096 rows) and the candidates answer.
        for index in 0..<12_000 {
            items.append(Item(name: "Pb filler \(index) \(index % 1_500 == 0 ? "markup" : "mark")", status: .inStock(quantity: 5)))
        }
        return items
    }

    /// Inserts `items` a thousand at a time. On the shared test server every writer of items,
    /// whatever its schema, takes 0004's history turn (one advisory lock per database) until it
    /// commits: one transaction of 25,000 inserts would hold the other suites' writers past
    /// their lock timeout.
    static func insert(_ items: [Item], into store: InventoryStore) throws {
        for start in stride(from: 0, to: items.count, by: 1_000) {
            try store.items.insert(contentsOf: items[start..<min(start + 1_000, items.count)])
        }
    }

    @Test(arguments: Engine.allCases)
    func theRangesWalkFindsWhatTheScanFinds(_ engine: Engine) throws {
        let test = try TestStore(engine)
        var generator = SeededGenerator(state: 11)
        try Self.insert(Self.items().shuffled(using: &generator), into: test.store)
        // Shell writes: a late name, a renamed one, a deleted one; the triggers keep the ranges.
        let now = "'2026-11-25T10:00:00.000Z'"
        #expect(try test.shell("INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('01937a2b-0000-7000-8000-00000000abcd', 'Zx hand sturdy', NULL, 'in_stock', 3, NULL, \(now), \(now));").status == 0)
        #expect(try test.shell("UPDATE items SET name = 'Ba renamed STURDY' WHERE name = 'Aa early 0';").status == 0)
        #expect(try test.shell("DELETE FROM items WHERE name = 'Zz tie Sturdy lamp' AND substr(id, 36, 1) IN ('3', '7');").status == 0)
        let pages: [(limit: Int, offset: Int)] = [(20, 0), (1, 0), (5, 3), (20, 990), (20, 4_990), (50, 1_000)]
        for term in ["sturdy", "STURDY", "urd", "tie stu", "y 1", "thin", "THIN 1", "renamed", "hand st", "Zz", "nothing", "abcd", "bcd 4", "c-b", "abc-", "AbcAbc", "markup", "0 markup", "mark"] {
            for page in pages {
                let found = try test.store.items.list(matching: ItemQuery(nameContains: term, limit: page.limit, offset: page.offset))
                let expected = try Self.scan(test, term, limit: page.limit, offset: page.offset)
                #expect(found.map(\.id.lowercasedString) == expected, "\(engine) term \(term.debugDescription), limit \(page.limit) offset \(page.offset)")
            }
        }
        // With another condition, the walk of each range carries it along.
        var query = ItemQuery(nameContains: "sturdy", limit: 20, offset: 10)
        query.status = .onBackOrder
        let backOrdered = try test.store.items.list(matching: query)
        #expect(backOrdered.count == 20)
        #expect(backOrdered.allSatisfy { $0.status == .outOfStock(isOnBackOrder: true) && $0.name.lowercased().contains("sturdy") })
    }

    /// Every range the current names need is in the table and covers their starts, whoever wrote the
    /// rows (ranges of renamed or deleted names may stay wider than needed; they never hide a
    /// match), on both engines, with letters that only a Unicode-wide fold would change.
    @Test(arguments: Engine.allCases)
    func theTriggersKeepEveryRangeTheNamesNeed(_ engine: Engine) throws {
        let test = try TestStore(engine)
        try Self.insert(Array(Self.items().prefix(3_000)), into: test.store)
        #expect(try test.shell("""
            UPDATE items SET name = 'Qé ÉÉ Kelvin \u{212A} 🎉 x' WHERE substr(id, 36, 1) IN ('0', '5');
            UPDATE items SET quantity = 7 WHERE substr(id, 36, 1) = '1' AND status = 'in_stock';
            DELETE FROM items WHERE substr(id, 36, 1) = 'a';
            """).status == 0)
        let needed = engine == .sqlite
            ? """
              WITH RECURSIVE positions(position) AS (SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position < 200)
              SELECT lower(substr(name, position, 3)) AS trigram, substr(name, 1, 2) AS head, substr(name, 1, 8) AS start FROM items JOIN positions ON position + 2 <= length(name)
              """
            : "SELECT lower(substr(name, position, 3)) AS trigram, left(name, 2) AS head, left(name, 8) AS start FROM items CROSS JOIN generate_series(1, length(name) - 2) AS position"
        let coverage = try test.shell("""
            SELECT count(*), count(ranges.trigram), sum(CASE WHEN ranges.first_start <= needed.start AND needed.start <= ranges.last_start THEN 1 ELSE 0 END)
            FROM (\(needed)) AS needed LEFT JOIN items_search_ranges AS ranges ON ranges.trigram = needed.trigram AND ranges.head = needed.head;
            """)
        let counts = coverage.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
        #expect(counts.count == 3 && Int(counts[0]) ?? 0 > 10_000 && counts[1] == counts[0] && counts[2] == counts[0],
                "\(engine): \(coverage.output) \(coverage.stderr)")
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "\u{212A}", limit: 5)).isEmpty == false)
        #expect(try test.store.items.list(matching: ItemQuery(nameContains: "kelvin k", limit: 5)).isEmpty, "\(engine): the Kelvin sign is not an ASCII K")
    }

    /// A `%`, `_` or `\\` followed by a combining mark is one Swift character but still LIKE's
    /// wildcard or escape to the engine: the pattern escapes it by Unicode scalar, so the term
    /// means its text, whichever plan runs (the ranges, the candidates, the plain statement).
    @Test(arguments: Engine.allCases)
    func aWildcardBeforeACombiningMarkIsLiteral(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let names = ["Qbab\u{301}z lamp", "Qb%\u{301}z lamp", "Qx\\\u{301}y lamp", "Qx\u{301}y lamp", "Qa_\u{301}b lamp", "Qaz\u{301}b lamp"]
        let items = names.map { Item(name: $0, status: .inStock(quantity: 1)) }
        try test.store.items.insert(contentsOf: items)
        for term in ["b%\u{301}z", "x\\\u{301}y", "a_\u{301}b", "%\u{301}z l"] {
            for limit in [nil, 5] as [Int?] {
                let query = ItemQuery(nameContains: term, limit: limit)
                let found = try test.store.items.list(matching: query)
                #expect(found == ItemSearchTests.expected(items, query), "\(engine) \(term.debugDescription) limit \(String(describing: limit))")
                #expect(found.count == 1, "\(engine) \(term.debugDescription): \(found.map(\.name))")
            }
        }
    }

    /// A name written in the sqlite3 shell that is not valid UTF-8 bounds its ranges with bytes
    /// no `String` can hold: the bounds are read and bound as bytes, so the walk still reaches it.
    @Test func aNameThatIsNotUTF8StillBoundsItsRanges() throws {
        let test = try TestStore(.sqlite)
        try test.store.items.insert(contentsOf: (0..<5_000).map { Item(name: "Zz sturdy \($0 + 10_000)", status: .inStock(quantity: 1)) })
        let now = "'2026-11-27T10:00:00.000Z'"
        #expect(try test.shell("INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('01937a2b-0000-7000-8000-0000000000ff', 'Zz sturdy ' || CAST(x'ff' AS TEXT), NULL, 'in_stock', 1, NULL, \(now), \(now));").status == 0)
        for (limit, offset) in [(6_000, 0), (1, 5_000), (20, 4_990)] {
            let found = try test.store.items.list(matching: ItemQuery(nameContains: "sturdy", limit: limit, offset: offset))
            #expect(found.map(\.id.lowercasedString) == (try Self.scan(test, "sturdy", limit: limit, offset: offset)), "limit \(limit) offset \(offset)")
        }
    }

    /// In a PostgreSQL database that does not store UTF-8 (SQL_ASCII), the server counts bytes
    /// where a term's trigrams count characters: the ranges would miss a term with a non-ASCII
    /// letter, so such a database is searched by the plain statement, with the same rows.
    @Test func aServerDatabaseNotInUTF8IsSearchedByThePlainStatement() throws {
        let server = try PostgresServer.shared
        let database = "t_ascii_" + UUID().uuidString.prefix(8).lowercased()
        #expect(try server.psql("CREATE DATABASE \(database) ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0").status == 0)
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let store = try InventoryStore(location: .postgres(server.socketURI(database: database)))
        let items = ["Café lamp", "CAFÉ LAMP 2", "Cafe lamp", "Crème brûlée", "Plain chair"].map { Item(name: $0, status: .inStock(quantity: 1)) }
        try store.items.insert(contentsOf: items)
        for term in ["é l", "É L", "afé", "brû", "lamp", "zzz"] {
            let query = ItemQuery(nameContains: term, limit: 10)
            #expect(try store.items.list(matching: query) == ItemSearchTests.expected(items, query), "\(term.debugDescription)")
        }
    }
}
