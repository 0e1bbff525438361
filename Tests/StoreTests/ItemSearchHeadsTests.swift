import Foundation
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The walk through the heads of `items_search_heads` (migration 0006, ItemSearch.swift) gives
/// exactly what a plain LIKE scan gives, on a real file: common terms whose matches all sort
/// late, matches spread thinly over several heads (so the walk's budget carries from range to
/// range), names that tie, pages further in, and rows written, renamed and deleted in the
/// sqlite3 shell.
@Suite struct ItemSearchHeadsTests {
    /// The rule as SQL, the statement `items list --search` ran before any index: the oracle.
    static func scan(_ path: String, _ term: String, limit: Int, offset: Int) throws -> [String] {
        let pattern = ItemQuery.containsPattern(term).replacingOccurrences(of: "'", with: "''")
        let result = try Processes.sqlite3(path, "SELECT id FROM items WHERE name LIKE '\(pattern)' ESCAPE '\\' ORDER BY name, id LIMIT \(limit) OFFSET \(offset);")
        #expect(result.status == 0, "\(result.stderr)")
        return result.output.split(separator: "\n").map(String.init)
    }

    /// 13,530 items: 2,000 early names ("Aa", "Ab" ...) without the common words; 5,000 late ones
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
        return items
    }

    @Test func theHeadsWalkFindsWhatTheScanFinds() throws {
        let test = try TestStore(.sqlite)
        var generator = SeededGenerator(state: 11)
        try test.store.items.insert(contentsOf: Self.items().shuffled(using: &generator))
        // Shell writes: a late name, a renamed one, a deleted one; the triggers keep the heads.
        let now = "'2026-11-25T10:00:00.000Z'"
        #expect(try test.shell("INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('01937a2b-0000-7000-8000-00000000abcd', 'Zx hand sturdy', NULL, 'in_stock', 3, NULL, \(now), \(now));").status == 0)
        #expect(try test.shell("UPDATE items SET name = 'Ba renamed STURDY' WHERE name = 'Aa early 0';").status == 0)
        #expect(try test.shell("DELETE FROM items WHERE name = 'Zz tie Sturdy lamp' AND rowid % 7 = 0;").status == 0)
        let pages: [(limit: Int, offset: Int)] = [(20, 0), (1, 0), (5, 3), (20, 990), (20, 4_990), (50, 1_000)]
        for term in ["sturdy", "STURDY", "urd", "tie stu", "y 1", "thin", "THIN 1", "renamed", "hand st", "Zz", "nothing", "abcd", "bcd 4"] {
            for page in pages {
                let found = try test.store.items.items(matching: ItemQuery(nameContains: term, limit: page.limit, offset: page.offset))
                let expected = try Self.scan(test.path, term, limit: page.limit, offset: page.offset)
                #expect(found.map(\.id.lowercasedString) == expected, "term \(term.debugDescription), limit \(page.limit) offset \(page.offset)")
            }
        }
        // With another condition, the walk of each range carries it along.
        var query = ItemQuery(nameContains: "sturdy", limit: 20, offset: 10)
        query.status = .onBackOrder
        let backOrdered = try test.store.items.items(matching: query)
        #expect(backOrdered.count == 20)
        #expect(backOrdered.allSatisfy { $0.status == .outOfStock(isOnBackOrder: true) && $0.name.lowercased().contains("sturdy") })
    }

    /// Every pair the current names need is in the table, whoever wrote the rows: what a
    /// rebuild from `items` would hold is a subset of what the triggers left (stale pairs of
    /// renamed or deleted names may remain; they never hide a match).
    @Test func theTriggersKeepEveryPairTheNamesNeed() throws {
        let test = try TestStore(.sqlite)
        try test.store.items.insert(contentsOf: Array(Self.items().prefix(3_000)))
        #expect(try test.shell("UPDATE items SET name = 'Qé ÉÉ Kelvin \u{212A} 🎉 x' WHERE rowid % 50 = 0; DELETE FROM items WHERE rowid % 61 = 0;").status == 0)
        let missing = try Processes.sqlite3(test.path, """
            CREATE TEMP TABLE wanted AS WITH RECURSIVE positions(position) AS (SELECT 1 UNION ALL SELECT position + 1 FROM positions WHERE position < 200)
            SELECT DISTINCT lower(substr(name, position, 3)) AS trigram, substr(name, 1, 2) AS head FROM items JOIN positions ON position + 2 <= length(name);
            SELECT count(*) FROM wanted; SELECT count(*) FROM items_search_heads;
            SELECT count(*) FROM (SELECT trigram, head FROM wanted EXCEPT SELECT trigram, head FROM items_search_heads);
            """)
        let counts = missing.output.split(separator: "\n")
        #expect(counts.count == 3 && Int(counts[0]) ?? 0 > 1_000 && Int(counts[1]) ?? 0 >= Int(counts[0]) ?? 0 && counts[2] == "0", "\(missing.output) \(missing.stderr)")
        #expect(try test.store.items.items(matching: ItemQuery(nameContains: "\u{212A}", limit: 5)).isEmpty == false)
    }
}
