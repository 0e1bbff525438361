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

/// What every engine's migration runner does, so a caller holds one runner for either engine
/// (``MigrationRunner`` for SQLite, ``PostgresMigrationRunner`` for PostgreSQL). The rules
/// that do not depend on the engine (which applied lists can be trusted, what is pending) are
/// written once here over ``MigrationSet``; each runner supplies how its engine reads the
/// applied list, applies, reports and verifies.
public protocol MigrationRunning: AnyObject {
    /// The engine this runner migrates.
    var engine: DatabaseEngine { get }
    /// The migrations this runner knows.
    var migrations: MigrationSet { get }
    /// The migrations recorded as applied, in version order; empty for a new database.
    func appliedMigrations() throws -> [AppliedMigration]
    /// Every known migration and every unknown applied version, in version order. Reads only.
    func status() throws -> [MigrationStatusEntry]
    /// Applies pending migrations in order, up to and including `target` when given; calls
    /// `onApplied` after each one commits and returns the migrations this call applied.
    @discardableResult
    func migrate(upTo target: Int?, onApplied: (Migration) -> Void) throws -> [Migration]
    /// Compares checksums, versions and the live schema with what the migrations produce.
    func verify() throws -> MigrationVerification
}

extension MigrationRunning {
    /// Everything wrong with the applied list (see ``MigrationSet/validationErrors(_:)``):
    /// the unknown versions, each edited migration, then the skipped versions. Empty when the
    /// database can be trusted.
    public func validationErrors(_ applied: [AppliedMigration]) -> [MigrationError] {
        migrations.validationErrors(applied)
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

    /// The known migrations not yet applied, after validating the applied ones.
    public func pendingMigrations() throws -> [Migration] {
        try migrations.pendingMigrations(after: try appliedMigrations())
    }

    /// Brings the database up to date, cheaply when it already is: a database whose applied
    /// migrations are all known and unchanged, with none pending, costs two small reads.
    public func ensureCurrent() throws {
        if try !pendingMigrations().isEmpty { try migrate(upTo: nil, onApplied: { _ in }) }
    }
}
