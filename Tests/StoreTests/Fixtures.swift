import Foundation
import Testing
import Inventory
import StockroomStore
import StockroomTestSupport

/// Generated domain values covering every case and the edges of each associated value.
enum Generated {
    static let names = ["Keyboard", "a", "Ünïcödé 🎉", "quote ' and \" and ;--", "  padded  ", "zero\u{200B}width", String(repeating: "x", count: 500)]
    static let quantities = [1, 2, 99, 100, 65_535, Int(Int32.max), Int.max]

    /// Every status case with edge and random associated values.
    static func statuses(count: Int, seed: UInt64) -> [Status] {
        var generator = SeededGenerator(state: seed)
        var statuses: [Status] = quantities.map { .inStock(quantity: $0) } + [.outOfStock(isOnBackOrder: false), .outOfStock(isOnBackOrder: true)]
        while statuses.count < count {
            statuses.append(Bool.random(using: &generator)
                ? .inStock(quantity: Int.random(in: 1...Int.max, using: &generator))
                : .outOfStock(isOnBackOrder: Bool.random(using: &generator)))
        }
        return statuses
    }

    static func items(count: Int, seed: UInt64) -> [Item] {
        var generator = SeededGenerator(state: seed)
        let colors: [Color?] = [nil] + Color.allCases
        return statuses(count: count, seed: seed &+ 1).enumerated().map { index, status in
            Item(name: names[index % names.count] + (index < names.count ? "" : " \(index)"),
                 color: colors.randomElement(using: &generator)!, status: status)
        }
    }

    /// Both draft cases around generated items, with empty names allowed (drafts may have them).
    static func drafts(count: Int, seed: UInt64) -> [Draft] {
        items(count: count, seed: seed).enumerated().map { index, item in
            var item = item
            if index % 5 == 0 { item.name = "" }
            return index.isMultiple(of: 2) ? .adding(item) : .duplicating(item, sourceItemID: UUID.version7())
        }
    }
}

/// The engines every repository test runs against: the contract suite.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// A migrated store: a SQLite file in a temporary folder, or a schema of its own on the
/// throwaway PostgreSQL server the tests start (``PostgresServer/shared``).
final class TestStore {
    let engine: Engine
    let directory = TemporaryDirectory()
    let schema: PostgresScratchSchema?
    let store: InventoryStore
    var path: String { directory.path("store.sqlite") }

    init(_ engine: Engine = .sqlite) throws {
        self.engine = engine
        switch engine {
        case .sqlite:
            schema = nil
            store = try InventoryStore(path: directory.path("store.sqlite"))
        case .postgres:
            let schema = try PostgresScratchSchema()
            self.schema = schema
            store = try InventoryStore(location: .postgres(schema.uri))
        }
    }

    /// Runs `sql` by hand in the engine's own shell (`sqlite3` or `psql`), as a person would;
    /// both print rows as `a|b|c`, NULL as an empty field.
    @discardableResult
    func shell(_ sql: String) throws -> ProcessResult {
        switch engine {
        case .sqlite: try Processes.sqlite3(path, sql)
        case .postgres: try schema!.psql(sql)
        }
    }

    /// Runs `sql` by hand with the CHECK constraints out of the way, to write rows only a hand
    /// edit could: SQLite's `ignore_check_constraints`; on PostgreSQL, the checks are dropped.
    @discardableResult
    func shellIgnoringChecks(_ sql: String) throws -> ProcessResult {
        switch engine {
        case .sqlite: return try shell("PRAGMA ignore_check_constraints = ON;\n" + sql)
        case .postgres:
            let dropped = try shell("""
                DO $$ DECLARE c record; BEGIN
                  FOR c IN SELECT conname, conrelid::regclass AS t FROM pg_constraint
                           WHERE contype = 'c' AND connamespace = current_schema()::regnamespace LOOP
                    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.t, c.conname);
                  END LOOP;
                END $$;
                """)
            guard dropped.status == 0 else { return dropped }
            return try shell(sql)
        }
    }
}
