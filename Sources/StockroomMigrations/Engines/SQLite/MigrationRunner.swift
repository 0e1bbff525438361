import FoundationEssentials
import Glibc
import SQLiteCore
import TextFormats

/// Applies versioned migrations to a database and refuses databases it cannot vouch for.
///
/// Every migration runs in its own `IMMEDIATE` transaction, recorded in `schema_migrations` in
/// that same transaction. The write lock is taken before the applied list is read, and the list
/// is read again under the lock for each migration: two processes migrating at once never apply
/// a migration twice (the second waits for the lock, then applies only what is still pending), and a
/// migration that fails is rolled back whole, leaving the database at the previous version with
/// every earlier migration kept. A migration marked `-- stockroom:no-transaction` runs on its
/// own, outside any transaction.
///
/// Foreign-key enforcement is turned off around each transaction (it cannot change inside one),
/// which lets a migration rebuild a table the way sqlite.org's ALTER TABLE procedure describes;
/// `PRAGMA foreign_key_check` runs before COMMIT instead, and any violation rolls the migration
/// back with an error naming the migration and the table.
public final class MigrationRunner: MigrationRunning {
    /// The engine this runner migrates.
    public var engine: DatabaseEngine { .sqlite }

    /// The table that records applied migrations.
    public static let tableName = "schema_migrations"

    /// Creates the table when missing; run in the transaction of the first migration.
    public static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            -- One row per migration file applied, written by stockroom in the same
            -- transaction as the migration itself.
            version    INTEGER PRIMARY KEY,   -- the NNNN of Migrations/NNNN_name.sql
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL,         -- SHA-256 of the file, line endings normalised to LF
            applied_at TEXT NOT NULL          -- ISO-8601 UTC
        ) STRICT
        """

    let database: Database
    /// The migrations this runner knows.
    public let migrations: MigrationSet

    /// Creates a runner for `database` with the given set (by default the embedded one).
    public init(database: Database, migrations: MigrationSet = .embedded(.sqlite)) {
        self.database = database
        self.migrations = migrations
    }

    /// The migrations recorded as applied, in version order; empty for a new database.
    public func appliedMigrations() throws -> [AppliedMigration] {
        guard try database.tableExists(MigrationRunner.tableName) else { return [] }
        return try database.withStatement(
            "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"
        ) { statement in
            var applied: [AppliedMigration] = []
            while try statement.step() {
                applied.append(AppliedMigration(
                    version: statement.int(at: 0), name: statement.text(at: 1),
                    checksum: statement.text(at: 2), appliedAt: statement.text(at: 3)))
            }
            return applied
        }
    }

    /// Applies pending migrations in order, up to and including `target` when given.
    ///
    /// - Returns: the migrations this call applied (empty when another process got there first).
    /// - Throws: ``MigrationError`` naming the file, the statement and SQLite's message. The
    ///   failing migration is rolled back; the ones applied before it by this call stay applied.
    /// - Parameter onApplied: called after each migration commits.
    @discardableResult
    public func migrate(upTo target: Int? = nil, onApplied: (Migration) -> Void = { _ in }) throws -> [Migration] {
        let limit = target ?? Int.max
        var applied: [Migration] = []
        // Peeking without the lock only chooses how to run the next migration; which one runs,
        // if any, is decided again under the lock (another process may have applied it).
        // The peek is retried while SQLite reports BUSY without waiting (a WAL being recovered).
        while let candidate = try database.retryingWhileBusy({ try pendingMigrations().first }), candidate.version <= limit {
            let migration = candidate.runsInTransaction
                ? try applyInTransaction(upTo: limit)
                : try applyOutsideTransaction(candidate)
            if let migration {
                applied.append(migration)
                onApplied(migration)
            }
        }
        return applied
    }

    /// Under the write lock, reads the applied list and applies the first pending migration.
    private func applyInTransaction(upTo limit: Int) throws -> Migration? {
        try withForeignKeyEnforcementOff {
            try database.writeTransaction {
                guard let migration = try pendingMigrations().first, migration.version <= limit,
                      migration.runsInTransaction else { return nil }
                try database.execute(MigrationRunner.createTableSQL)
                try run(migration)
                try checkForeignKeys(after: migration)
                try record(migration)
                return migration
            }
        }
    }

    /// Runs a no-transaction migration, then records it unless another process did meanwhile.
    /// Nothing can lock out a second process running the same file at the same moment, which
    /// is why docs/migrations.md asks for such migrations to be safe to repeat.
    private func applyOutsideTransaction(_ migration: Migration) throws -> Migration? {
        try run(migration)
        return try database.writeTransaction {
            try database.execute(MigrationRunner.createTableSQL)
            guard try pendingMigrations().first?.version == migration.version else { return nil }
            try record(migration)
            return migration
        }
    }

    private func withForeignKeyEnforcementOff<T>(_ body: () throws -> T) throws -> T {
        let wasOn = try database.withStatement("PRAGMA foreign_keys") { statement in
            try statement.step() && statement.int(at: 0) == 1
        }
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { if wasOn { try? database.execute("PRAGMA foreign_keys = ON") } }
        return try body()
    }

    private func run(_ migration: Migration) throws {
        do {
            try database.forEachStatement(in: migration.sql) { statement in try statement.run() }
        } catch let error as SQLiteError {
            throw MigrationError.statementFailed(
                fileName: migration.fileName, statement: Self.statementOnly(error.sql ?? ""), error: error)
        }
    }

    /// The statement without the comment lines that precede it in the file or its final
    /// semicolon, as it should read in an error message.
    static func statementOnly(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.drop { line in
            let trimmed = line.trimmed { $0.isWhitespace && !$0.isNewline }
            return trimmed.isEmpty || trimmed.hasPrefix("--")
        }
        return String(body.joined(separator: "\n").trimmed { "; \n\t\r".contains($0) })
    }

    private func checkForeignKeys(after migration: Migration) throws {
        let violations = try database.foreignKeyViolations()
        if let first = violations.first {
            let count = violations.filter { $0.table == first.table }.count
            throw MigrationError.foreignKeyViolation(fileName: migration.fileName, table: first.table, rowCount: count)
        }
    }

    private func record(_ migration: Migration) throws {
        try database.withStatement("""
            INSERT INTO schema_migrations (version, name, checksum, applied_at)
            VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            """) { statement in
            try statement.bind(migration.version, at: 0)
            try statement.bind(migration.name, at: 1)
            try statement.bind(migration.checksum, at: 2)
            try statement.run()
        }
    }
}
