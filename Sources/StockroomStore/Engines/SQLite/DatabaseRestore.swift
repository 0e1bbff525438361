import FoundationEssentials
import Glibc
import SQLiteCore
import StockroomMigrations
import TextFormats

/// What a finished restore did.
public struct RestoreResult: Sendable {
    /// The live database that now holds the restored content.
    public let livePath: String
    /// Where the replaced content was kept; nil when the live database had no tables.
    public let safetyCopyPath: String?
    /// Schema version and counts of what was restored.
    public let summary: DatabaseSummary
}

/// Restores a backup into the live database while other processes may have it open.
///
/// A file is never renamed over an open SQLite database (its readers would keep the old inode
/// and writers would corrupt the new one). Instead the backup API copies the backup's pages
/// *into* the live file, in one write transaction: readers see the old content or the new,
/// never a mix, and the schema cookie changes so every connection reloads its schema.
///
/// The order makes the safety copy exact: the first, empty backup step takes the live
/// database's write lock; under it no one can commit, so the safety copy taken next is
/// precisely the content that the final step replaces.
public enum DatabaseRestore {
    /// Replaces the content of the database at `live` with the backup at `sourcePath`.
    ///
    /// The backup must pass ``DatabaseCheck`` first: an SQLite file, sound, with migrations this
    /// binary knows, whose rows all decode. A PostgreSQL database at `live` is refused with
    /// ``BackupError/serverDatabase(_:operation:)`` before connecting.
    ///
    /// - Parameters:
    ///   - sourcePath: the backup file.
    ///   - live: the database whose content is replaced.
    ///   - replacingContent: restore even when the live database holds items, drafts or
    ///     tables of its own (`--force`).
    ///   - busyTimeout: how long to wait for the live database's write lock.
    ///   - now: dates the safety copy's name.
    /// - Throws: ``BackupError``, ``DatabaseFileError/foreign(path:tables:)`` for another
    ///   program's file (even when `replacingContent`), or `SQLiteError` (busy: the live
    ///   database stayed locked).
    ///   On any failure the live database is as it was, and no safety copy is left.
    public static func run(from sourcePath: String, into live: DatabaseLocation, replacingContent: Bool,
                           busyTimeout: Duration, now: Date = Date()) throws -> RestoreResult {
        guard let livePath = live.filePath else { throw BackupError.serverDatabase(live.description, operation: "restore") }
        return try run(from: sourcePath, into: livePath, replacingContent: replacingContent, busyTimeout: busyTimeout, now: now)
    }

    /// Restores into the database at `live`, the busy timeout in milliseconds.
    @available(*, deprecated, message: "give the busy timeout as a Duration: busyTimeout:")
    public static func run(from sourcePath: String, into live: DatabaseLocation, replacingContent: Bool,
                           busyTimeoutMilliseconds: Int32, now: Date = Date()) throws -> RestoreResult {
        try run(from: sourcePath, into: live, replacingContent: replacingContent, busyTimeout: .milliseconds(busyTimeoutMilliseconds), now: now)
    }

    /// Restores into the database file at `livePath`, the busy timeout in milliseconds.
    @available(*, deprecated, message: "give the busy timeout as a Duration: busyTimeout:")
    public static func run(from sourcePath: String, into livePath: String, replacingContent: Bool,
                           busyTimeoutMilliseconds: Int32, now: Date = Date()) throws -> RestoreResult {
        try run(from: sourcePath, into: livePath, replacingContent: replacingContent, busyTimeout: .milliseconds(busyTimeoutMilliseconds), now: now)
    }

    /// Restores into the database file at `livePath`, as ``run(from:into:replacingContent:busyTimeout:now:)-(_,DatabaseLocation,_,_,_)``.
    public static func run(from sourcePath: String, into livePath: String, replacingContent: Bool,
                           busyTimeout: Duration, now: Date = Date()) throws -> RestoreResult {
        let busyTimeoutMilliseconds = busyTimeout.clampedMilliseconds
        guard FileManager.default.fileExists(atPath: sourcePath) else { throw BackupError.databaseMissing(sourcePath) }
        if DurableFile.isSameFile(sourcePath, livePath) { throw BackupError.sameFile(sourcePath) }
        let configuration = Database.Configuration(busyTimeout: .milliseconds(busyTimeoutMilliseconds))
        let source = try BackupError.naming(sourcePath) {
            try Database(path: sourcePath, mode: .queryOnly, configuration: configuration)
        }
        let report = try DatabaseCheck.run(on: source)
        guard report.isHealthy, let summary = report.summary else {
            throw BackupError.sourceRejected(sourcePath, problems: report.problems)
        }

        let liveExisted = FileManager.default.fileExists(atPath: livePath)
        var isRestored = false
        defer { if !isRestored && !liveExisted { DurableFile.removeDatabaseFiles(livePath) } }
        // An existing file is opened without a journal-mode switch, so that a refusal below
        // (a foreign file, content without --force) leaves it byte for byte as it was.
        let live = try BackupError.naming(livePath) {
            try Database(path: livePath, mode: liveExisted ? .readWriteInspectFirst : .readWriteCreate, configuration: configuration)
        }
        if liveExisted {
            // Refuse before the first write (the switch to WAL the backup API needs here), so
            // a refused file stays byte for byte as it was; checked again under the write lock.
            _ = try live.readTransaction { try refuseUnlessReplaceable(live, livePath: livePath, replacingContent: replacingContent) }
            try live.prepareForWriting()
        }
        let operation = try BackupOperation(from: source, into: live)
        try operation.step(pages: 0)

        let reader = try Database(path: livePath, mode: .queryOnly, configuration: configuration)
        let safetyCopy = try keepSafetyCopy(of: reader, livePath: livePath, replacingContent: replacingContent, now: now)
        do {
            try operation.step(pages: -1)
            try operation.finish()
        } catch {
            if let safetyCopy { DurableFile.removeDatabaseFiles(safetyCopy) }
            throw error
        }
        isRestored = true
        return RestoreResult(livePath: livePath, safetyCopyPath: safetyCopy, summary: summary)
    }

    /// Refuses a live database with content unless `replacingContent`, then copies it beside
    /// itself under a dated name. Runs under the live database's write lock.
    private static func keepSafetyCopy(of live: Database, livePath: String, replacingContent: Bool, now: Date) throws -> String? {
        try live.readTransaction {
            guard try refuseUnlessReplaceable(live, livePath: livePath, replacingContent: replacingContent) else { return nil }
            for attempt in 1...100 {
                let path = safetyCopyPath(for: livePath, at: now, attempt: attempt)
                let temporaryFile = try DurableFile.createTemporary(besides: path)
                let temporary = temporaryFile.path
                var isPlaced = false
                defer { if !isPlaced { temporaryFile.removeUnlessMoved() } }
                _ = try SnapshotFile.write(live, toEmptyFile: temporary, pagesPerStep: -1) { _ in }
                do {
                    try SnapshotFile.place(temporary, at: path, replacing: false)
                    isPlaced = true
                    return path
                } catch BackupError.destinationExists {
                    continue // an earlier restore in the same second kept its copy under this name
                }
            }
            throw BackupError.cannotCreate(safetyCopyPath(for: livePath, at: now, attempt: 1), reason: "too many safety copies with this date")
        }
    }

    /// Refuses another program's file (--force or not: it replaces a Stockroom database's
    /// content, never someone else's file) and, unless `replacingContent`, a database with
    /// content. Call it in a read transaction.
    ///
    /// - Returns: false when the live file has no tables (nothing to keep a copy of).
    @discardableResult
    private static func refuseUnlessReplaceable(_ live: Database, livePath: String, replacingContent: Bool) throws -> Bool {
        let tables = try DatabaseFile.tableNames(in: live)
        if !tables.isEmpty && !tables.contains(MigrationRunner.tableName) {
            throw DatabaseFileError.foreign(path: livePath, tables: tables)
        }
        let otherTables = tables.filter { !StockroomTables.owns($0) }
        let items = try live.rowCount(of: ItemsTable.name)
        let drafts = try live.rowCount(of: DraftsTable.name)
        if !replacingContent && (items > 0 || drafts > 0 || !otherTables.isEmpty) {
            throw BackupError.liveDatabaseNotEmpty(livePath, itemCount: items, draftCount: drafts, otherTables: otherTables)
        }
        return !tables.isEmpty
    }

    /// `DIR/NAME.before-restore-20261122T153501Z.EXT` beside `DIR/NAME.EXT`, with `-2`, `-3`…
    /// after the date for further restores within the same second.
    static func safetyCopyPath(for livePath: String, at date: Date, attempt: Int) -> String {
        let url = URL(fileURLWithPath: livePath)
        let stamp = Timestamp.compact(date) + (attempt > 1 ? "-\(attempt)" : "")
        let stem = url.deletingPathExtension().lastPathComponent
        let name = url.pathExtension.isEmpty
            ? "\(url.lastPathComponent).before-restore-\(stamp)"
            : "\(stem).before-restore-\(stamp).\(url.pathExtension)"
        return url.deletingLastPathComponent().appending(path: name).path
    }
}
