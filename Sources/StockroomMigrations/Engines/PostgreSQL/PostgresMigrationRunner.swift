import FoundationEssentials
import Glibc
import PostgresCore

/// Applies versioned migrations (by default `Migrations/postgres/`) to a PostgreSQL database
/// and refuses databases it cannot vouch for, by the same rules as SQLite's
/// ``MigrationRunner`` (see ``MigrationSet/validationErrors(_:)``).
///
/// Every migration runs in its own transaction, recorded in `schema_migrations` in that same
/// transaction (PostgreSQL's DDL is transactional: a failing migration leaves nothing behind).
/// Each transaction begins only once the advisory lock ``lockKey`` is held, and reads the
/// applied list again under it, so two `migrate up` at once never apply a migration twice: the
/// second waits for the first to commit, then finds nothing left to do. The lock is a session
/// lock taken *before* BEGIN rather than a transaction lock taken after it: a transaction that
/// began while another was creating tables keeps a stale catalog cache (`to_regclass` still
/// finds no `schema_migrations`) until it next locks a relation, and would apply the
/// migration again. A lost connection releases the lock with the session. A migration marked
/// `-- stockroom:no-transaction` runs on its own (`CREATE INDEX CONCURRENTLY`), then is
/// recorded under the lock.
///
/// The tables live in the connection's current schema (the first of `search_path`, usually
/// `public`).
public final class PostgresMigrationRunner: MigrationRunning {
    /// The engine this runner migrates.
    public var engine: DatabaseEngine { .postgres }

    /// The advisory lock every Stockroom process takes before applying a migration.
    public static let lockKey = AdvisoryLockKey(name: "stockroom.migrations")

    /// Creates the table when missing; run in the transaction of the first migration.
    public static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS \(MigrationRunner.tableName) (
            -- One row per migration file applied, written by stockroom in the same
            -- transaction as the migration itself.
            version    bigint PRIMARY KEY,    -- the NNNN of Migrations/postgres/NNNN_name.sql
            name       text NOT NULL,
            checksum   text NOT NULL,         -- SHA-256 of the file, line endings normalised to LF
            applied_at text NOT NULL          -- ISO-8601 UTC
        )
        """

    let connection: Connection
    /// The migrations this runner knows.
    public let migrations: MigrationSet

    /// Creates a runner for the database `connection` is connected to.
    public init(connection: Connection, migrations: MigrationSet = .embedded(.postgres)) {
        self.connection = connection
        self.migrations = migrations
    }

    /// True when the current schema has a `schema_migrations` table.
    public func hasMigrationsTable() throws -> Bool {
        try connection.query("SELECT to_regclass($1) IS NOT NULL", MigrationRunner.tableName).scalar(Bool.self)
    }

    /// The migrations recorded as applied, in version order; empty for a new database.
    public func appliedMigrations() throws -> [AppliedMigration] {
        guard try hasMigrationsTable() else { return [] }
        return try connection.query("SELECT version, name, checksum, applied_at FROM \(MigrationRunner.tableName) ORDER BY version")
            .map { row in
                AppliedMigration(version: try row.get(Int.self, at: 0), name: try row.get(String.self, at: 1),
                                 checksum: try row.get(String.self, at: 2), appliedAt: try row.get(String.self, at: 3))
            }
    }

    /// Every known migration and every unknown applied version, in version order. Reads only.
    public func status() throws -> [MigrationStatusEntry] {
        migrations.statusEntries(try connection.transaction(readOnly: true) { try appliedMigrations() })
    }

    /// Applies pending migrations in order, up to and including `target` when given.
    ///
    /// - Returns: the migrations this call applied (empty when another process got there first).
    /// - Throws: ``MigrationError`` (``MigrationError/serverStatementFailed(fileName:error:)``
    ///   naming the file and the server's error). The failing migration is rolled back; the
    ///   ones applied before it by this call stay applied.
    /// - Parameter onApplied: called after each migration commits.
    @discardableResult
    public func migrate(upTo target: Int? = nil, onApplied: (Migration) -> Void = { _ in }) throws -> [Migration] {
        let limit = target ?? Int.max
        var applied: [Migration] = []
        // As on SQLite, the peek without the lock only chooses how to run the next migration;
        // which one runs, if any, is decided again under the lock.
        while let candidate = try pendingMigrations().first, candidate.version <= limit {
            let migration = candidate.runsInTransaction
                ? try applyInTransaction(upTo: limit)
                : try applyOutsideTransaction(candidate)
            guard let migration else {
                // Another process applied it meanwhile; look again.
                continue
            }
            applied.append(migration)
            onApplied(migration)
        }
        return applied
    }

    /// Runs `body` in a transaction that begins once this session holds ``lockKey``.
    private func underLock<T>(_ body: () throws -> T) throws -> T {
        try connection.query("SELECT pg_advisory_lock($1)", Self.lockKey.rawValue)
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", Self.lockKey.rawValue) }
        return try connection.transaction(body)
    }

    private func applyInTransaction(upTo limit: Int) throws -> Migration? {
        try underLock {
            guard let migration = try pendingMigrations().first, migration.version <= limit,
                  migration.runsInTransaction else { return nil }
            try connection.execute(Self.createTableSQL)
            try run(migration)
            try record(migration)
            return migration
        }
    }

    private func applyOutsideTransaction(_ migration: Migration) throws -> Migration? {
        try run(migration)
        return try underLock {
            try connection.execute(Self.createTableSQL)
            guard try pendingMigrations().first?.version == migration.version else { return nil }
            try record(migration)
            return migration
        }
    }

    /// Runs the migration's script, all of its statements in one simple query.
    func run(_ migration: Migration) throws {
        do {
            try connection.execute(migration.sql)
        } catch let error as PostgresError {
            throw MigrationError.serverStatementFailed(fileName: migration.fileName, error: error)
        }
    }

    func record(_ migration: Migration) throws {
        try connection.run("""
            INSERT INTO \(MigrationRunner.tableName) (version, name, checksum, applied_at)
            VALUES ($1, $2, $3, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            """, migration.version, migration.name, migration.checksum)
    }

    /// Checks the database without changing it: the applied list against the known migrations,
    /// and the live schema (read from the catalog) against the schema the same applied
    /// migrations produce in a scratch schema of a transaction that is rolled back.
    public func verify() throws -> MigrationVerification {
        let (applied, live) = try connection.transaction(isolation: .repeatableRead, readOnly: true) {
            (try appliedMigrations(), try SchemaSnapshot(reading: connection))
        }
        let problems = validationErrors(applied)
        let knownApplied = applied.compactMap { migrations.migration(version: $0.version) }
        let comparable = knownApplied.count == applied.count
        let differences = comparable
            ? live.differences(from: try SchemaSnapshot.produced(by: try MigrationSet(knownApplied), on: connection))
            : []
        return MigrationVerification(
            problems: problems, schemaDifferences: differences, schemaComparisonSkipped: !comparable,
            appliedCount: applied.count, pendingCount: migrations.pendingCount(after: applied))
    }
}

/// Rolls a scratch transaction back on purpose.
private struct ScratchRollback: Error {}

extension SchemaSnapshot {
    /// The schema that `migrations` produce on PostgreSQL: applied to a scratch schema inside a
    /// transaction on `connection` that is then rolled back, so the server keeps nothing.
    public static func produced(by migrations: MigrationSet, on connection: Connection) throws -> SchemaSnapshot {
        var snapshot: SchemaSnapshot?
        do {
            try connection.transaction {
                let scratch = "stockroom_scratch_" + UUID().uuidString.prefix(8).lowercased()
                try connection.execute("CREATE SCHEMA \(scratch); SET LOCAL search_path = \(scratch)")
                let runner = PostgresMigrationRunner(connection: connection, migrations: migrations)
                try connection.execute(PostgresMigrationRunner.createTableSQL)
                for migration in migrations.migrations {
                    try runner.run(migration)
                    try runner.record(migration)
                }
                snapshot = try SchemaSnapshot(reading: connection)
                throw ScratchRollback()
            }
        } catch is ScratchRollback {}
        guard let snapshot else { throw ScratchRollback() }
        return snapshot
    }
}
