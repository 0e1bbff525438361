import CSQLite
import Foundation
import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// The write lock comes before the applied list: a runner that has to wait for another
/// connection's migration sees that migration once it gets the lock.
@Suite struct MigrationLockTests {
    /// Lets a busy handler, which is a C function, reach the connection it must commit.
    final class Holder {
        let connection: Database
        var busyCalls = 0
        init(_ connection: Database) { self.connection = connection }
    }

    @Test func aRunnerWaitingForTheLockReadsTheAppliedListAgainUnderIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("locked.sqlite")
        let migrations = try migrationSet(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.notes)
        let waiting = try Database(path: path)
        let other = try Database(path: path)

        // Another connection is mid-way through applying migration 1: lock held, not committed.
        try other.execute("BEGIN IMMEDIATE")
        try other.execute(MigrationFixtures.shelvesAndBoxes.sql)
        try other.execute("""
            CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
                checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT;
            INSERT INTO schema_migrations VALUES (1, 'create_shelves_and_boxes', '\(migrations.migrations[0].checksum)', '2026-01-01T00:00:00Z');
            """)
        let runner = MigrationRunner(database: waiting, migrations: migrations)
        #expect(try runner.pendingMigrations().map(\.version) == [1, 3], "outside the lock, 1 still looks pending")

        // The moment the runner finds the lock taken, the other connection commits.
        let holder = Holder(other)
        let context = Unmanaged.passUnretained(holder).toOpaque()
        sqlite3_busy_handler(waiting.rawHandle, { context, _ in
            let holder = Unmanaged<Holder>.fromOpaque(context!).takeUnretainedValue()
            holder.busyCalls += 1
            try? holder.connection.execute("COMMIT")
            return 1
        }, context)
        defer { sqlite3_busy_handler(waiting.rawHandle, nil, nil) }

        #expect(try runner.migrate().map(\.version) == [3])
        #expect(holder.busyCalls >= 1, "the runner never waited for the lock, so the test proved nothing")
        #expect(try waiting.integer("SELECT count(*) FROM schema_migrations") == 2)
        #expect(try waiting.integer("SELECT count(*) FROM boxes") == 3)
    }
}
