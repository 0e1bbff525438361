import SQLiteCore

/// One line of `stockroom migrate status`: a known migration, or a version the database
/// records that this binary does not know.
public struct MigrationStatusEntry: Sendable, Equatable {
    /// Where a migration stands in the database.
    public enum State: String, Sendable {
        /// Recorded in `schema_migrations`.
        case applied
        /// Not applied yet; `migrate up` would apply it.
        case pending
        /// Not applied although a later migration is: `migrate up` refuses the database.
        case skipped
        /// Recorded in the database but unknown to this binary (a newer Stockroom applied it).
        case unknown
    }

    /// The migration's version.
    public let version: Int
    /// The migration's name (for an unknown version, the name the database recorded).
    public let name: String
    /// The file name, or nil for an unknown version.
    public let fileName: String?
    /// Where it stands.
    public let state: State
    /// When it was applied (ISO-8601 UTC), or nil when it was not.
    public let appliedAt: String?
    /// Whether the recorded checksum matches the file; nil unless applied and known.
    public let checksumMatches: Bool?
}

extension MigrationRunner {
    /// Every known migration and every unknown applied version, in version order. Reads only.
    public func status() throws -> [MigrationStatusEntry] {
        let applied = try database.readTransaction { try appliedMigrations() }
        return migrations.statusEntries(applied)
    }
}
