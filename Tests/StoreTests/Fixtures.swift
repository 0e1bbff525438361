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

    /// Every draft case around generated items, with empty names allowed (drafts may have
    /// them); every third a conflict's (``conflicts(count:seed:)``).
    static func drafts(count: Int, seed: UInt64) -> [Draft] {
        let conflicts = conflicts(count: count, seed: seed &+ 3)
        return items(count: count, seed: seed).enumerated().map { index, item in
            var item = item
            if index % 5 == 0 { item.name = "" }
            switch index % 3 {
            case 0: return .adding(item)
            case 1: return .duplicating(item, sourceItemID: UUID.version7())
            default: return Draft.resolution(of: conflicts[index])
            }
        }
    }

    /// Conflicts of every reason about generated items: held by the hub or deleted there, with
    /// wanted values (a location among them) or a wanted delete, the edges of the numbers.
    static func conflicts(count: Int, seed: UInt64) -> [Conflict] {
        var generator = SeededGenerator(state: seed)
        return items(count: count, seed: seed &+ 1).enumerated().map { index, hub in
            var hub = hub
            if index % 4 == 1 { hub.location = ItemLocation(stored: "Shelf \(index)") }
            var wanted = hub
            wanted.name = "wanted \(index)"
            wanted.location = index.isMultiple(of: 2) ? ItemLocation(stored: "Bin \(index)") : nil
            wanted.status = .inStock(quantity: index + 1)
            let changes = ItemChanges(from: hub, to: wanted)!
            let reason: ConflictReason = switch index % 8 {
            case 0: .overtaken(changes)
            case 1: .oversold(adjustment: index == 1 ? Int.min : -Int.random(in: 2...1_000, using: &generator),
                              missing: index == 1 ? Int.max : Int.random(in: 1...1_000, using: &generator))
            case 2: .quantityOverflow(adjustment: Int.max)
            case 3: .changedBeforeDelete
            case 4: .deletedBeforeChange(.set(changes))
            case 5: .resolvedMeanwhile(.item(wanted))
            case 6: .resolvedMeanwhile(.delete)
            default: .deletedBeforeChange(.adjust(by: -1))
            }
            let hubDeleted = reason.case == .deletedBeforeChange
            return Conflict(id: generator.uuid(), itemID: hub.id, hubItem: hubDeleted ? nil : hub, replicaCopy: hub,
                            origin: generator.uuid(), madeAt: "2026-11-28T10:\(10 + index % 50):00.\(100 + index % 900)Z", reason: reason)
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
    /// Where the store is, as a sync names its hub.
    var location: DatabaseLocation { schema.map { .postgres($0.uri) } ?? .file(path) }

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
