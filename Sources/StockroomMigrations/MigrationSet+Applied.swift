/// What a set of known migrations says about a database's applied list: the same rules on
/// every engine, so that SQLite's ``MigrationRunner`` and ``PostgresMigrationRunner`` trust,
/// refuse and report a database in exactly the same way. Only reading the list and applying
/// a migration differ per engine.
extension MigrationSet {
    /// Everything wrong with the applied list, in the order a runner's `validate` reports it:
    /// the unknown versions, each edited migration, then the skipped versions. Empty when the
    /// database can be trusted.
    public func validationErrors(_ applied: [AppliedMigration]) -> [MigrationError] {
        var problems: [MigrationError] = []
        let unknown = applied.map(\.version).filter { migration(version: $0) == nil }
        if !unknown.isEmpty { problems.append(.unknownAppliedVersions(unknown)) }
        for record in applied {
            guard let migration = migration(version: record.version),
                  migration.checksum != record.checksum else { continue }
            problems.append(.checksumMismatch(
                version: record.version, fileName: migration.fileName,
                recorded: record.checksum, current: migration.checksum))
        }
        let skipped = skippedMigrations(applied)
        if !skipped.isEmpty { problems.append(.gap(missing: skipped.map(\.version))) }
        return problems
    }

    /// Known migrations older than the newest applied one that were never applied.
    func skippedMigrations(_ applied: [AppliedMigration]) -> [Migration] {
        let appliedVersions = Set(applied.map(\.version))
        let newest = applied.last?.version ?? 0
        return migrations.filter { $0.version < newest && !appliedVersions.contains($0.version) }
    }

    /// The known migrations newer than the newest applied one, after validating the list.
    ///
    /// - Throws: the first of ``validationErrors(_:)``.
    func pendingMigrations(after applied: [AppliedMigration]) throws -> [Migration] {
        if let first = validationErrors(applied).first { throw first }
        let newest = applied.last?.version ?? 0
        return migrations.filter { $0.version > newest }
    }

    /// Every known migration and every unknown applied version, in version order.
    func statusEntries(_ applied: [AppliedMigration]) -> [MigrationStatusEntry] {
        let recorded = Dictionary(uniqueKeysWithValues: applied.map { ($0.version, $0) })
        let skipped = Set(skippedMigrations(applied).map(\.version))
        var entries = migrations.map { migration in
            let record = recorded[migration.version]
            let state: MigrationStatusEntry.State =
                record != nil ? .applied : skipped.contains(migration.version) ? .skipped : .pending
            return MigrationStatusEntry(
                version: migration.version, name: migration.name, fileName: migration.fileName, state: state,
                appliedAt: record?.appliedAt, checksumMatches: record.map { $0.checksum == migration.checksum })
        }
        for record in applied where migration(version: record.version) == nil {
            entries.append(MigrationStatusEntry(
                version: record.version, name: record.name, fileName: nil, state: .unknown,
                appliedAt: record.appliedAt, checksumMatches: nil))
        }
        return entries.sorted { $0.version < $1.version }
    }

    /// The count of known migrations newer than the newest applied one.
    func pendingCount(after applied: [AppliedMigration]) -> Int {
        let newest = applied.last?.version ?? 0
        return migrations.filter { $0.version > newest }.count
    }
}
