import Glibc
import SQLiteCore

/// One snapshot of a database written to a new, self-contained file: the step backups and
/// restore's safety copies share.
enum SnapshotFile {
    /// Copies the snapshot `source` sees into the empty file at `path` with the backup API.
    ///
    /// When `source` is inside a read transaction, that transaction's snapshot is copied, so
    /// whatever the caller read in it describes the copy exactly.
    ///
    /// The copy uses a rollback journal, not WAL: the finished file then stands alone, with no
    /// `-wal` or `-shm` beside it, and opening it read-only later creates none.
    static func write(_ source: Database, toEmptyFile path: String, pagesPerStep: Int,
                      progress: (BackupProgress) -> Void) throws -> BackupProgress {
        let destination = try Database(path: path, mode: .readWrite)
        try destination.execute("PRAGMA journal_mode = DELETE")
        let copied = try source.copy(into: destination, pagesPerStep: pagesPerStep, progress: progress)
        // The copied header still names WAL, as the source's does; this rewrites it.
        try destination.execute("PRAGMA journal_mode = DELETE")
        return copied
    }

    /// Syncs the finished file at `temporary`, renames it to `path` and syncs the folder.
    ///
    /// - Throws: before the rename, ``BackupError`` saying nothing was written at `path`;
    ///   after it, ``BackupError/placedButNotSynced(_:reason:)``: `path` holds the finished
    ///   file, only its durability across a power cut is in doubt.
    static func place(_ temporary: String, at path: String, replacing: Bool) throws {
        try removeJournals(of: temporary)
        try DurableFile.sync(temporary)
        try DurableFile.moveIntoPlace(temporary, to: path, replacing: replacing)
        do {
            try DurableFile.syncFolder(of: path)
        } catch BackupError.fileSystem(_, _, let reason) {
            throw BackupError.placedButNotSynced(path, reason: reason)
        }
    }

    /// Removes what SQLite left beside the finished temporary file. Switching the copy back to
    /// a rollback journal checkpoints its `-wal` into it and deletes `-wal` and `-shm`, but
    /// SQLite ignores a failed delete; the copy is whole without them, yet they would stay
    /// behind as litter named after a file that no longer exists. A name that cannot be
    /// removed stops the backup before the rename, saying which: never a silent success.
    private static func removeJournals(of temporary: String) throws {
        for suffix in ["-wal", "-shm", "-journal"] {
            let journal = temporary + suffix
            var info = stat()
            guard lstat(journal, &info) == 0 else { continue }
            guard unlink(journal) == 0 || errno == ENOENT else {
                throw BackupError.fileSystem(journal, operation: "remove the temporary", reason: DurableFile.lastErrorText())
            }
        }
    }
}
