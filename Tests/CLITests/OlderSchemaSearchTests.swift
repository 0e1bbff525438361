import Foundation
import StockroomTestSupport
import Testing

/// A command that reads never migrates, so `items list --search` meets files from before its
/// tables: before 0005 (no trigram index), before 0006 (no search heads) and before 0007 (heads,
/// not yet the search ranges). Such a file, one the user may not even be allowed to write, is
/// searched as it is: the LIKE rule's rows, in its order, and the file left byte-identical.
@Suite struct OlderSchemaSearchTests {
    /// 6,000 items, 5,000 of whose names hold "lamp": past the 4,096 candidates at which a
    /// search with a limit walks by name, so every plan is reached on a file that has its tables.
    static let rows = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
        INSERT INTO items (id, name, status, quantity, created_at, updated_at)
        SELECT printf('00000000-0000-7000-8000-%012d', i),
               (CASE WHEN i % 6 = 0 THEN 'Plain chair ' ELSE 'Sturdy LAMP ' END) || printf('%05d', (i * 7919) % 6000),
               'in_stock', i, '2026-11-25T00:00:00.000Z', '2026-11-25T00:00:00.000Z'
        FROM n;
        """

    @Test(arguments: [4, 5, 6])
    func aFileFromBeforeTheSearchTablesIsSearchedAsItIs(version: Int) throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("migrate", "up", "--to", String(version)).status == 0)
        _ = try database.sqlite3(Self.rows)
        let before = try DatabaseSnapshot.of(database.path)
        for (term, offset) in [("lamp", 0), ("lamp", 4_990), ("chair 0", 3), ("zzz", 0)] {
            let result = try database.stockroom("items", "list", "--search", term, "--limit", "20",
                                                "--offset", String(offset), "--format", "json")
            #expect(result.status == 0, "v\(version) '\(term)': \(result)")
            let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            let expected = try database.sqlite3("""
                SELECT id FROM items WHERE name LIKE '%\(term)%' ESCAPE '\\' ORDER BY name, id LIMIT 20 OFFSET \(offset);
                """).split(separator: "\n").map(String.init)
            #expect(items.compactMap { $0["id"] as? String } == expected, "v\(version) '\(term)' offset \(offset)")
        }
        #expect(try DatabaseSnapshot.of(database.path) == before, "a search on a v\(version) file changed it")
        #expect(try database.sqlite3("SELECT max(version) FROM schema_migrations;") == String(version))
    }
}
