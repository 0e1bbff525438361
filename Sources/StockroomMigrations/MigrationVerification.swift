import SQLiteCore

/// What `stockroom migrate verify` found: whether the applied list can be trusted, and whether
/// the live schema is what the applied migrations produce.
public struct MigrationVerification: Sendable {
    /// Unknown versions, edited files and skipped versions (see ``MigrationRunner/validationErrors(_:)``).
    public let problems: [MigrationError]
    /// How the live schema departs from the schema the applied migrations produce.
    public let schemaDifferences: [SchemaDifference]
    /// True when the schema was not compared because the database records versions this binary
    /// does not know, so it cannot know what they created.
    public let schemaComparisonSkipped: Bool
    /// How many migrations the database records.
    public let appliedCount: Int
    /// How many known migrations are not applied yet (not a problem: `migrate up` applies them).
    public let pendingCount: Int

    /// True when nothing is off.
    public var isClean: Bool { problems.isEmpty && schemaDifferences.isEmpty }

    /// Every finding as one line each, problems first.
    public var findings: [String] {
        problems.map(\.description) + schemaDifferences.map(\.description)
    }
}

extension MigrationRunner {
    /// Checks the database without changing it: the applied list against the known migrations,
    /// and the live schema (`sqlite_schema`, normalised) against the schema the same applied
    /// migrations produce in a scratch in-memory database.
    ///
    /// - Throws: ``SQLiteError`` when the database cannot be read; ``MigrationError`` when an
    ///   applied migration fails in the scratch database.
    public func verify() throws -> MigrationVerification {
        let (applied, live) = try database.readTransaction {
            (try appliedMigrations(), try SchemaSnapshot(reading: database))
        }
        let problems = validationErrors(applied)
        let knownApplied = applied.compactMap { migrations.migration(version: $0.version) }
        let comparable = knownApplied.count == applied.count
        let differences = comparable
            ? live.differences(from: try SchemaSnapshot.produced(by: try MigrationSet(knownApplied)))
            : []
        return MigrationVerification(
            problems: problems, schemaDifferences: differences, schemaComparisonSkipped: !comparable,
            appliedCount: applied.count, pendingCount: migrations.pendingCount(after: applied))
    }
}
