import Foundation
import SQLiteCore

/// A migration recorded in the database's `schema_migrations` table.
public struct AppliedMigration: Sendable, Equatable {
    /// The migration's version.
    public let version: Int
    /// The migration's name when it was applied.
    public let name: String
    /// The checksum of the file when it was applied.
    public let checksum: String
    /// When it was applied, ISO-8601 UTC.
    public let appliedAt: String
}

/// Applies versioned migrations to a database and refuses databases it cannot vouch for.
///
/// Every migration runs in its own `IMMEDIATE` transaction: the write lock is taken before the
/// applied list is read, and the list is read again under that lock for each migration, so two
/// processes migrating at once never apply a migration twice. A migration that fails leaves the
/// database at the previous version.
///
/// Foreign-key enforcement is turned off around each transactional migration (it cannot change
/// inside a transaction), which lets a migration rebuild a table the way sqlite.org's ALTER TABLE
/// procedure describes; `PRAGMA foreign_key_check` runs before COMMIT instead, and any violation
/// rolls the migration back.
public final class MigrationRunner {
    /// The table that records applied migrations.
    public static let tableName = "schema_migrations"

    static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            -- One row per migration file applied, written by stockroom in the same
            -- transaction as the migration itself.
            version    INTEGER PRIMARY KEY,   -- the NNNN of Migrations/NNNN_name.sql
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL,         -- SHA-256 of the file, line endings normalised to LF
            applied_at TEXT NOT NULL          -- ISO-8601 UTC
        ) STRICT
        """

    private let database: Database
    /// The migrations this runner knows.
    public let migrations: MigrationSet

    /// Creates a runner for `database` with the given set (by default the embedded one).
    public init(database: Database, migrations: MigrationSet = .embedded) {
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

    /// Checks the applied list against the known migrations.
    ///
    /// - Throws: the first of ``validationErrors(_:)``:
    ///   ``MigrationError/unknownAppliedVersions(_:)`` for a database from a newer binary,
    ///   ``MigrationError/checksumMismatch(version:fileName:recorded:current:)`` for an edited
    ///   file, ``MigrationError/gap(missing:)`` for a skipped version.
    public func validate(_ applied: [AppliedMigration]) throws {
        if let first = validationErrors(applied).first { throw first }
    }

    /// Everything wrong with the applied list, in the order ``validate(_:)`` reports it: the
    /// unknown versions, each edited migration, then the skipped versions. Empty when the
    /// database can be trusted.
    public func validationErrors(_ applied: [AppliedMigration]) -> [MigrationError] {
        var errors: [MigrationError] = []
        let unknown = applied.map(\.version).filter { migrations.migration(version: $0) == nil }
        if !unknown.isEmpty { errors.append(.unknownAppliedVersions(unknown)) }
        for record in applied {
            guard let migration = migrations.migration(version: record.version) else { continue }
            if migration.checksum != record.checksum {
                errors.append(.checksumMismatch(
                    version: record.version, fileName: migration.fileName,
                    recorded: record.checksum, current: migration.checksum))
            }
        }
        let appliedVersions = Set(applied.map(\.version))
        let newest = applied.last?.version ?? 0
        let missing = migrations.migrations.map(\.version).filter { $0 < newest && !appliedVersions.contains($0) }
        if !missing.isEmpty { errors.append(.gap(missing: missing)) }
        return errors
    }

    /// The known migrations not yet applied, after validating the applied ones.
    public func pendingMigrations() throws -> [Migration] {
        let applied = try appliedMigrations()
        try validate(applied)
        let newest = applied.last?.version ?? 0
        return migrations.migrations.filter { $0.version > newest }
    }

    /// Brings the database up to date, cheaply when it already is: a database whose applied
    /// migrations are all known and unchanged, with none pending, costs two small reads.
    public func ensureCurrent() throws {
        if try !pendingMigrations().isEmpty { try migrate() }
    }

    /// Applies pending migrations in order, up to and including `target` when given.
    ///
    /// - Returns: the migrations this call applied (empty when another process got there first).
    @discardableResult
    public func migrate(upTo target: Int? = nil) throws -> [Migration] {
        var applied: [Migration] = []
        while let migration = try applyNext(upTo: target ?? Int.max) {
            applied.append(migration)
        }
        return applied
    }

    /// Applies the next pending migration, if any, under the write lock.
    private func applyNext(upTo target: Int) throws -> Migration? {
        // Peek without the lock only to choose the transaction mode; the decision that counts
        // is made again under the lock.
        guard let candidate = try pendingMigrations().first, candidate.version <= target else { return nil }
        if candidate.runsInTransaction {
            return try applyInTransaction(upTo: target)
        }
        return try applyOutsideTransaction(candidate)
    }

    private func applyInTransaction(upTo target: Int) throws -> Migration? {
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        return try database.writeTransaction {
            try database.execute(MigrationRunner.createTableSQL)
            guard let migration = try pendingMigrations().first, migration.version <= target else { return nil }
            guard migration.runsInTransaction else { return nil }
            try run(migration)
            try checkForeignKeys(after: migration)
            try record(migration)
            return migration
        }
    }

    private func applyOutsideTransaction(_ migration: Migration) throws -> Migration {
        try database.writeTransaction { try database.execute(MigrationRunner.createTableSQL) }
        try run(migration)
        try database.writeTransaction {
            guard try pendingMigrations().first?.version == migration.version else { return }
            try record(migration)
        }
        return migration
    }

    private func run(_ migration: Migration) throws {
        do {
            try database.forEachStatement(in: migration.sql) { statement in try statement.run() }
        } catch let error as SQLiteError {
            throw MigrationError.statementFailed(fileName: migration.fileName, statement: error.sql ?? "", error: error)
        }
    }

    private func checkForeignKeys(after migration: Migration) throws {
        let violations = try database.foreignKeyViolations()
        if let table = violations.first?.table {
            let count = violations.filter { $0.table == table }.count
            throw MigrationError.foreignKeyViolation(fileName: migration.fileName, table: table, rowCount: count)
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
