import Inventory
@testable import StockroomStore
import Testing

/// A search reads in one snapshot (issue 21): the count of the index's candidates, which picks
/// the plan, and the rows the plan reads belong to the same database state, so a writer between
/// them cannot make a page skip or repeat a row. Observable without timing: while the search
/// hands out its rows, a read transaction is open on the connection (SQLite's autocommit is off).
@Suite struct ItemSearchSnapshotTests {
    @Test(arguments: [
        ("Lamp", 4_200),     // more candidates than ItemSearch.directCandidates: the walk in name order
        ("Rare", 12),        // a few: the candidates read by rowid and sorted
    ])
    func everyPlanReadsInOneTransaction(_ term: String, _ matching: Int) throws {
        let test = try TestStore(.sqlite)
        let database = try #require(test.store.database)
        try test.store.items.insert(contentsOf: (0..<matching).map { Item(name: "\(term) \($0)") }
            + (0..<50).map { Item(name: "Other \($0)") })
        var seen: [Item] = []
        try test.store.items.forEachItem(matching: ItemQuery(nameContains: term.uppercased(), limit: 20)) { item in
            #expect(!database.isAutocommit, "\(term): a row was handed out outside a read transaction")
            seen.append(item)
        }
        #expect(seen.count == min(matching, 20))
        #expect(seen.allSatisfy { $0.name.hasPrefix(term) })
        #expect(database.isAutocommit, "the search left its transaction open")
        // A search inside a caller's transaction joins it instead of nesting one.
        let joined = try test.store.read {
            try test.store.items.list(matching: ItemQuery(nameContains: term, limit: 1))
        }
        #expect(joined.count == 1)
    }
}
