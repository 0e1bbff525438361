import FoundationEssentials
import Glibc
import SQLiteCore
import TextFormats

/// What a finished backup wrote.
public struct BackupResult: Sendable {
    /// The backup file's absolute path.
    public let path: String
    /// Its size.
    public let bytes: Int
    /// Database pages copied.
    public let pages: Int
    /// How long the whole backup took, checks and syncs included.
    public let seconds: Double
    /// Schema version and counts of the snapshot copied.
    public let summary: DatabaseSummary
}

/// How far a backup has got: pages copied of the total, reported between steps.
public typealias BackupProgress = SQLiteCore.BackupProgress

/// Online backups of a Stockroom database that other processes keep reading and writing.
///
/// The copy is one consistent snapshot taken with SQLite's backup API while a read transaction
/// holds it (so it finishes under any stream of writes). It is written beside the destination
/// under a temporary name, must show no damage to `integrity_check` and the source's schema
/// version and counts, is synced, and only then renamed into place: the destination never holds a partial
/// or unchecked file. The source is opened read-only and never migrated, so a backup works at
/// any schema version, including one newer than this binary knows.
public enum DatabaseBackup {
    /// Backs up the database file at `source` to a new file at `destinationPath`; a
    /// PostgreSQL database is refused with ``BackupError/serverDatabase(_:operation:)`` before
    /// connecting.
    ///
    /// - Parameters:
    ///   - source: the database to back up.
    ///   - destinationPath: the new file.
    ///   - replacing: replace `destinationPath` when it exists (`--force`).
    ///   - busyTimeout: how long to wait for a writer's lock on the source.
    ///   - pagesPerStep: pages copied between two progress reports; negative for one step.
    ///   - progress: called after each step with the pages copied so far.
    /// - Throws: ``BackupError`` (nothing is left at or beside the destination, except after
    ///   ``BackupError/placedButNotSynced(_:reason:)`` and
    ///   ``BackupError/placedWithLitter(_:temporary:reason:)``, which say what is there);
    ///   `SQLiteError` when the source cannot be read.
    public static func run(from source: DatabaseLocation, to destinationPath: String, replacing: Bool,
                           busyTimeout: Duration, pagesPerStep: Int = -1,
                           progress: (BackupProgress) -> Void = { _ in }) throws -> BackupResult {
        guard let sourcePath = source.filePath else { throw BackupError.serverDatabase(source.description, operation: "backup") }
        return try run(from: sourcePath, to: destinationPath, replacing: replacing, busyTimeout: busyTimeout,
                       pagesPerStep: pagesPerStep, progress: progress)
    }

    /// Backs up the database at `source`, the busy timeout in milliseconds.
    @available(*, deprecated, message: "give the busy timeout as a Duration: busyTimeout:")
    public static func run(from source: DatabaseLocation, to destinationPath: String, replacing: Bool,
                           busyTimeoutMilliseconds: Int32, pagesPerStep: Int = -1,
                           progress: (BackupProgress) -> Void = { _ in }) throws -> BackupResult {
        try run(from: source, to: destinationPath, replacing: replacing, busyTimeout: .milliseconds(busyTimeoutMilliseconds),
                pagesPerStep: pagesPerStep, progress: progress)
    }

    /// Backs up the database file at `sourcePath`, the busy timeout in milliseconds.
    @available(*, deprecated, message: "give the busy timeout as a Duration: busyTimeout:")
    public static func run(from sourcePath: String, to destinationPath: String, replacing: Bool,
                           busyTimeoutMilliseconds: Int32, pagesPerStep: Int = -1,
                           progress: (BackupProgress) -> Void = { _ in }) throws -> BackupResult {
        try run(from: sourcePath, to: destinationPath, replacing: replacing, busyTimeout: .milliseconds(busyTimeoutMilliseconds),
                pagesPerStep: pagesPerStep, progress: progress)
    }

    /// Backs up the database file at `sourcePath`, as ``run(from:to:replacing:busyTimeout:pagesPerStep:progress:)-(DatabaseLocation,_,_,_,_,_)``.
    public static func run(from sourcePath: String, to destinationPath: String, replacing: Bool,
                           busyTimeout: Duration, pagesPerStep: Int = -1,
                           progress: (BackupProgress) -> Void = { _ in }) throws -> BackupResult {
        let busyTimeoutMilliseconds = busyTimeout.clampedMilliseconds
        let started = ContinuousClock.now
        let destination = URL(fileURLWithPath: destinationPath).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: sourcePath) else { throw BackupError.databaseMissing(sourcePath) }
        if DurableFile.isSameFile(sourcePath, destination) { throw BackupError.sameFile(destination) }
        try DurableFile.checkCanCreate(destination, replacing: replacing)

        let source = try BackupError.naming(sourcePath) {
            try Database(path: sourcePath, mode: .queryOnly, configuration: .init(busyTimeout: .milliseconds(busyTimeoutMilliseconds)))
        }
        let temporaryFile = try DurableFile.createTemporary(besides: destination)
        let temporary = temporaryFile.path
        var isPlaced = false
        defer { if !isPlaced { temporaryFile.removeUnlessMoved() } }

        let (summary, copied) = try BackupError.naming(sourcePath) {
            try source.readTransaction {
                guard let summary = try DatabaseSummary.read(from: source) else {
                    throw BackupError.notStockroomDatabase(sourcePath, tables: try DatabaseFile.tableNames(in: source))
                }
                do {
                    return (summary, try SnapshotFile.write(source, toEmptyFile: temporary, pagesPerStep: pagesPerStep, progress: progress))
                } catch let error as SQLiteError where error.isDiskFull {
                    throw BackupError.diskFull(destination)
                }
            }
        }
        try verify(temporary, matches: summary, destination: destination, source: sourcePath)
        do {
            try SnapshotFile.place(temporary, at: destination, replacing: replacing)
        } catch let error as BackupError {
            switch error {
            case .placedButNotSynced, .placedWithLitter: isPlaced = true
            default: break
            }
            throw error
        }
        isPlaced = true

        let elapsed = ContinuousClock.now - started
        return BackupResult(
            path: destination, bytes: try DurableFile.size(of: destination), pages: copied.totalPages,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            summary: summary)
    }

    /// Reads the copy back from the disk: it must be sound and hold what the source held.
    private static func verify(_ copyPath: String, matches summary: DatabaseSummary, destination: String, source: String) throws {
        let copied: DatabaseSummary?
        do {
            let copy = try Database(path: copyPath, mode: .readOnly)
            // Rows that break the schema's rules are copied faithfully; `stockroom check` reports
            // them. Refusing the copy would leave no backup at all.
            let damage = try copy.integrityProblems().filter { !DatabaseCheck.isConstraintFailure($0) }
            guard damage.isEmpty else { throw BackupError.copyDamaged(destination, source: source, problems: damage) }
            copied = try DatabaseSummary.read(from: copy)
        } catch let error as SQLiteError where error.isCorruption {
            throw BackupError.copyDamaged(destination, source: source, problems: ["\(error.message) (\(error.codeName))"])
        }
        guard copied == summary else {
            throw BackupError.copyDamaged(destination, source: source, problems: [
                "the copy reads \(copied.map { "schema version \($0.schemaVersion), \($0.itemCount) items, \($0.draftCount) drafts" } ?? "no schema version") instead of schema version \(summary.schemaVersion), \(summary.itemCount) items, \(summary.draftCount) drafts",
            ])
        }
    }
}
