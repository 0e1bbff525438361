import Inventory
import SQLiteCore
import StockroomMigrations
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// `DatabaseCheck` on real files damaged the ways a hand edit or a bad restore could.
@Suite struct DatabaseCheckTests {
    let directory = TemporaryDirectory()

    func makeStore() throws -> InventoryStore {
        let store = try InventoryStore(path: directory.path("inventory.sqlite"))
        try store.items.insert(Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 3)))
        try store.drafts.startAdding()
        return store
    }

    @Test func aHealthyDatabaseHasNoProblemsAndReportsItsContent() throws {
        let store = try makeStore()
        let report = try DatabaseCheck.run(on: try #require(store.database))
        #expect(report.problems == [])
        #expect(report.summary == DatabaseSummary(schemaVersion: MigrationSet.embedded(.sqlite).latestVersion, itemCount: 1, draftCount: 1))
        #expect(report.latestKnownVersion == MigrationSet.embedded(.sqlite).latestVersion)
    }

    @Test func everyRowThatDoesNotDecodeIsReportedNotOnlyTheFirst() throws {
        let store = try makeStore()
        // Rows the CHECK constraints would refuse, written the way a careless hand edit can,
        // with the history trigger dropped too (else it records each item, bad values included).
        try #require(store.database).execute("""
            DROP TRIGGER items_record_added;
            PRAGMA ignore_check_constraints = ON;
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('00000000-0000-7000-8000-000000000001', 'No quantity', NULL, 'in_stock', NULL, NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('00000000-0000-7000-8000-000000000002', 'Purple', 'purple', 'out_of_stock', NULL, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('00000000-0000-7000-8000-000000000003', '   ', NULL, 'in_stock', 2, NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
            INSERT INTO drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, created_at, updated_at) VALUES ('00000000-0000-7000-8000-000000000004', 'duplicating', NULL, '00000000-0000-7000-8000-000000000005', '', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
            PRAGMA ignore_check_constraints = OFF;
            """)
        let report = try DatabaseCheck.run(on: try #require(store.database))
        // integrity_check tests CHECK constraints per table; decoding names each row.
        // Written around the repositories, the items have no history either.
        #expect(report.problems.map(\.kind) == [.constraint, .constraint, .constraint, .constraint, .rows, .rows, .rows, .rows,
                                                .history, .history, .history])
        #expect(report.problems.suffix(3).allSatisfy { $0.message.hasSuffix("has no history") })
        #expect(report.problems.prefix(4).map(\.message).sorted() == ["CHECK constraint failed in drafts"] + Array(repeating: "CHECK constraint failed in items", count: 3))
        let messages = report.problems.dropFirst(4).map(\.message)
        #expect(messages[0].contains("000000000001") && messages[0].contains("quantity NULL"))
        #expect(messages[1].contains("000000000002") && messages[1].contains("purple"))
        #expect(messages[2].contains("000000000003") && messages[2].contains("blank"))
        #expect(messages[3].contains("000000000004") && messages[3].contains("duplicating"))
        #expect(!report.isCorrupt)
    }

    @Test func untrustedMigrationsAndOrphanRowsAreReported() throws {
        let store = try makeStore()
        try #require(store.database).execute("""
            UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1;
            INSERT INTO schema_migrations VALUES (99, 'from_the_future', 'x', '2030-01-01T00:00:00Z');
            PRAGMA foreign_keys = OFF;
            CREATE TABLE notes (item_id TEXT REFERENCES items (id));
            INSERT INTO notes VALUES ('no such item');
            """)
        let report = try DatabaseCheck.run(on: try #require(store.database))
        #expect(report.problems.map(\.kind) == [.foreignKey, .migrations, .migrations])
        #expect(report.problems[0].message.contains("table notes"))
        #expect(report.problems[1].message.contains("99"))
        #expect(report.problems[2].message.contains("modified"))
        #expect(report.summary?.schemaVersion == 99)
    }

    @Test func anOlderSchemaIsHealthyWithoutTheTablesLaterMigrationsAdd() throws {
        let database = try Database(path: directory.path("old.sqlite"))
        try MigrationRunner(database: database).migrate(upTo: 1)
        let report = try DatabaseCheck.run(on: database)
        #expect(report.problems == [])
        #expect(report.summary == DatabaseSummary(schemaVersion: 1, itemCount: 0, draftCount: 0))
    }

    @Test func aFileWithoutStockroomsTablesIsNotAStockroomDatabase() throws {
        let database = try Database(path: directory.path("other.sqlite"))
        try database.execute("CREATE TABLE t (x)")
        let report = try DatabaseCheck.run(on: database)
        #expect(report.summary == nil)
        #expect(report.problems.map(\.kind) == [.migrations])
        #expect(report.problems.first?.message.contains("not a Stockroom database") == true)
    }
}
