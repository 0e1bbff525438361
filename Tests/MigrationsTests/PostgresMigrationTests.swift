import Foundation
import PostgresCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// The PostgreSQL runner applies `Migrations/postgres/`, records checksums, refuses databases it
/// cannot vouch for and verifies the live schema, on a throwaway server.
@Suite struct PostgresMigrationTests {
    let schema: PostgresScratchSchema
    init() throws { schema = try PostgresScratchSchema() }

    func runner(_ migrations: MigrationSet = .embedded(.postgres)) throws -> PostgresMigrationRunner {
        PostgresMigrationRunner(connection: try Connection(schema.uri), migrations: migrations)
    }

    @Test func migrateAppliesEveryMigrationOnceAndRecordsItsChecksum() throws {
        let runner = try runner()
        let applied = try runner.migrate()
        let versions = MigrationSet.embedded(.postgres).migrations.map(\.version)
        #expect(applied.map(\.version) == versions)
        #expect(try runner.migrate().isEmpty)
        let recorded = try runner.appliedMigrations()
        #expect(recorded.map(\.checksum) == MigrationSet.embedded(.postgres).migrations.map(\.checksum))
        #expect(recorded.map(\.name) == MigrationSet.embedded(.sqlite).migrations.map(\.name))
        #expect(recorded.allSatisfy { $0.appliedAt.hasSuffix("Z") && $0.appliedAt.count == 24 })
        #expect(try runner.status().map(\.state) == versions.map { _ in .applied })
        let verification = try runner.verify()
        #expect(verification.isClean, "\(verification.findings)")
    }

    @Test func upToStopsAtTheTarget() throws {
        let runner = try runner()
        #expect(try runner.migrate(upTo: 2).map(\.version) == [1, 2])
        let pending = MigrationSet.embedded(.postgres).migrations.count - 2
        #expect(try runner.status().map(\.state) == [.applied, .applied] + Array(repeating: .pending, count: pending))
        #expect(try runner.verify().isClean)
    }

    @Test func aDatabaseFromANewerStockroomIsRefused() throws {
        let runner = try runner()
        try runner.migrate()
        #expect(try schema.psql("INSERT INTO schema_migrations VALUES (99, 'future', 'x', '2030-01-01T00:00:00.000Z')").status == 0)
        let error = try #require(throws: MigrationError.self) { try runner.migrate() }
        guard case .unknownAppliedVersions([99]) = error else {
            Issue.record("expected unknownAppliedVersions, got \(error)")
            return
        }
        #expect(try runner.status().last?.state == .unknown)
    }

    @Test func anEditedMigrationIsRefused() throws {
        try runner().migrate()
        let files = MigrationSet.embedded(.postgres).migrations
        var changed = files
        changed[2] = try Migration(fileName: files[2].fileName, sql: files[2].sql + "\n-- edited\n")
        let edited = try MigrationSet(changed)
        let error = try #require(throws: MigrationError.self) { try runner(edited).pendingMigrations() }
        guard case .checksumMismatch(3, _, _, _) = error else {
            Issue.record("expected checksumMismatch, got \(error)")
            return
        }
    }

    @Test func aFailingMigrationIsRolledBackWhole() throws {
        let files = MigrationSet.embedded(.postgres).migrations
        let brokenName = String(format: "%04d_broken.sql", MigrationSet.embedded(.postgres).latestVersion + 1)
        let broken = try Migration(fileName: brokenName, sql: "CREATE TABLE extra (x integer);\nSELECT no_such_function();\n")
        let runner = try runner(try MigrationSet(files + [broken]))
        var applied: [Int] = []
        let error = try #require(throws: MigrationError.self) { try runner.migrate { applied.append($0.version) } }
        #expect(applied == files.map(\.version))
        #expect(error.description.hasPrefix("migration \(brokenName) failed: 42883: "), "\(error)")
        #expect(try schema.psql("SELECT to_regclass('extra') IS NULL").output == "t")
        #expect(try runner.appliedMigrations().map(\.version) == files.map(\.version))
    }

    @Test func verifyFindsWhatWasChangedByHand() throws {
        let runner = try runner()
        try runner.migrate()
        #expect(try schema.psql("""
            DROP INDEX items_by_color_name;
            CREATE TABLE notes (x integer);
            ALTER TABLE drafts DROP CONSTRAINT source_matches_kind;
            """).status == 0)
        let findings = try runner.verify().findings
        #expect(findings.contains { $0.hasPrefix("index items_by_color_name on items is missing") }, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("table notes is in the database but no applied migration creates it") }, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("table drafts differs from what the migrations create") }, "\(findings)")
        #expect(findings.count == 3, "\(findings)")
    }

    /// Two `migrate up` at once: one applies, the other waits for the advisory lock, then finds
    /// nothing left to do; neither fails. A third connection holds the lock until both runners
    /// are seen waiting for it, so the race is certain to happen, not merely likely.
    @Test func twoRunnersAtOnceApplyEachMigrationOnce() throws {
        let holder = try Connection(schema.uri)
        let observer = try Connection(schema.uri)
        try holder.query("SELECT pg_advisory_lock($1)", PostgresMigrationRunner.lockKey.rawValue)
        let results = Locked<[Result<[Int], any Error>]>([])
        let group = DispatchGroup()
        // The runners name themselves, so waiters from tests running in parallel are not counted.
        let uri = schema.uri + "&application_name=\(schema.name)"
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let result = Result { try PostgresMigrationRunner(connection: try Connection(uri)).migrate().map(\.version) }
                results.withValue { $0.append(result) }
            }
        }
        // Both runners reach the lock and wait on it (pg_locks shows two ungranted advisory locks).
        let waiting = """
            SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = $1
            """
        // A runner that ends while the lock is held did not wait for it: stop looking, the
        // expectations below then fail.
        while results.current.isEmpty, try observer.query(waiting, schema.name).scalar(Int.self) < 2 {}
        try holder.query("SELECT pg_advisory_unlock($1)", PostgresMigrationRunner.lockKey.rawValue)
        group.wait()
        let outcomes = try results.current.map { try $0.get() }
        #expect(outcomes.count == 2)
        let versions = MigrationSet.embedded(.postgres).migrations.map(\.version)
        #expect(outcomes.flatMap { $0 }.sorted() == versions)
        #expect(try PostgresMigrationRunner(connection: observer).appliedMigrations().map(\.version) == versions)
    }

    /// Migrations/postgres/schema.sql is what the migrations produce on a real server.
    /// `scripts/update-schema.sh` rewrites it through this test (STOCKROOM_WRITE_SCHEMA=1).
    @Test func schemaSQLIsTheSchemaTheMigrationsProduce() throws {
        let file = Processes.packageRoot.appending(path: "Migrations/postgres/schema.sql")
        let produced = try SchemaSnapshot.produced(by: .embedded(.postgres), on: try Connection(schema.uri)).script
        if ProcessInfo.processInfo.environment["STOCKROOM_WRITE_SCHEMA"] == "1" {
            try produced.write(to: file, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == produced, "Migrations/postgres/schema.sql is stale: run scripts/update-schema.sh and commit it")
        // Nothing of the scratch schema is left on the server.
        #expect(try schema.psql("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'stockroom\\_scratch\\_%'").output == "0")
    }
}

/// What a person typing SQL into psql finds: the tagged columns' CHECKs and the history's
/// triggers refuse invalid rows, as the sqlite3 shell does.
@Suite struct PostgresSchemaConstraintTests {
    let schema: PostgresScratchSchema
    init() throws {
        schema = try PostgresScratchSchema()
        try PostgresMigrationRunner(connection: try Connection(schema.uri)).migrate()
    }

    static let id = "0190f2a4-0000-7000-8000-000000000001"
    static let columns = "id, name, color, status, quantity, is_on_back_order, created_at, updated_at"
    static let time = "'2026-11-22T15:04:05.123Z', '2026-11-22T15:04:05.123Z'"

    @Test(arguments: [
        ("'lost', NULL, NULL", "items_status_check"),
        ("'in_stock', NULL, NULL", "status_columns_match_status"),
        ("'in_stock', 0, NULL", "status_columns_match_status"),
        ("'in_stock', 3, 0", "status_columns_match_status"),
        ("'out_of_stock', NULL, 2", "status_columns_match_status"),
        ("'out_of_stock', 1, 0", "status_columns_match_status"),
    ])
    func anInvalidStatusIsRefusedByACheck(_ status: String, _ constraint: String) throws {
        let result = try schema.psql("INSERT INTO items (\(Self.columns)) VALUES ('\(Self.id)', 'Mug', NULL, \(status), \(Self.time))")
        #expect(result.status != 0)
        #expect(result.stderr.contains("violates check constraint \"\(constraint)\""), "\(result)")
        #expect(try schema.psql("SELECT count(*) FROM items").output == "0")
    }

    @Test func aValidRowIsAccepted() throws {
        let result = try schema.psql("INSERT INTO items (\(Self.columns)) VALUES ('\(Self.id)', 'Mug', 'red', 'out_of_stock', NULL, 1, \(Self.time))")
        #expect(result.status == 0, "\(result)")
    }

    @Test(arguments: [
        ("UPDATE item_events SET to_name = 'Cup'", "item_events is append-only: history cannot be changed"),
        ("DELETE FROM item_events", "item_events is append-only: history cannot be deleted"),
        ("TRUNCATE item_events", "item_events is append-only: history cannot be deleted"),
    ])
    func historyCannotBeRewritten(_ statement: String, _ message: String) throws {
        let insert = try schema.psql("""
            INSERT INTO item_events (item_id, version, kind, recorded_at, to_name, to_status, to_quantity)
            VALUES ('\(Self.id)', 1, 'added', '2026-11-22T15:04:05.123Z', 'Mug', 'in_stock', 2)
            """)
        #expect(insert.status == 0, "\(insert)")
        let result = try schema.psql(statement)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result)")
        #expect(try schema.psql("SELECT count(*) || ' ' || min(to_name) FROM item_events").output == "1 Mug")
    }
}

/// A value several threads hand to each other, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
    var current: Value { withValue { $0 } }
}
