import CSQLite
import FoundationEssentials
import Glibc

extension Database {
    /// Runs `body` in a write transaction and commits it, or rolls back when `body` throws.
    ///
    /// The transaction begins `IMMEDIATE`: it takes the write lock up front, waiting up to the
    /// busy timeout for it. A deferred transaction that reads first and writes later can fail
    /// with `SQLITE_BUSY` at the write without ever consulting the busy handler (its snapshot
    /// is stale), which is how "database is locked" escapes a timeout.
    ///
    /// - Throws: whatever `body` throws, or ``SQLiteError``. A COMMIT that fails with an I/O
    ///   error throws an error whose `isCommitOutcomeUnknown` is true.
    ///
    /// On a connection opened with ``prepareForWritingOnFirstChange()``, a committed transaction
    /// that changed rows then switches the file to WAL; one that rolled back, or changed no row,
    /// leaves the file's journal mode alone.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try withStatement("BEGIN IMMEDIATE") { try $0.run() }
        let changesBefore = sqlite3_total_changes64(handle)
        let result = try finishTransaction(body)
        if sqlite3_total_changes64(handle) != changesBefore { switchToWriteAheadLogAfterChange() }
        return result
    }

    /// Runs `body` in a deferred (read) transaction, so several queries see one snapshot.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try withStatement("BEGIN DEFERRED") { try $0.run() }
        return try finishTransaction(body)
    }

    /// Runs `body` inside a savepoint nested in the current transaction (or as its own
    /// transaction when none is open). The savepoint is rolled back when `body` throws.
    public func savepoint<T>(_ name: String = "stockroom", _ body: () throws -> T) throws -> T {
        let quoted = "\"" + name.replacing("\"", with: "\"\"") + "\""
        try execute("SAVEPOINT \(quoted)")
        do {
            let result = try body()
            try execute("RELEASE \(quoted)")
            return result
        } catch {
            if !isAutocommit {
                try? execute("ROLLBACK TO \(quoted)")
                try? execute("RELEASE \(quoted)")
            }
            throw error
        }
    }

    private func finishTransaction<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        let commit = CommitWatch(handle)
        defer { commit.end() }
        do {
            try withStatement("COMMIT") { try $0.run() }
        } catch let error as SQLiteError {
            // In WAL mode the automatic checkpoint runs inside COMMIT, after the commit record
            // is durable, and its failure is reported as COMMIT's. The write is saved.
            if commit.didCommit { return result }
            rollbackIfNeeded()
            // A write that failed (SQLITE_IOERR_WRITE: EIO, EFBIG past `ulimit -f`) before
            // the commit record left none: the WAL's commit frame is written last and
            // checksummed, and a rollback journal restores the file. Any other I/O error (a
            // failed fsync) may come after the commit record reached the disk.
            if error.primaryResult == .ioError && !error.isFailedWrite {
                throw SQLiteError(extendedCode: error.extendedCode, message: error.message, sql: error.sql,
                                  expandedSQL: error.expandedSQL, isCommitOutcomeUnknown: true, databasePath: error.databasePath)
            }
            throw error
        }
        return result
    }

    private func rollbackIfNeeded() {
        // SQLite may already have rolled back on its own (after SQLITE_FULL or SQLITE_IOERR).
        if !isAutocommit { try? withStatement("ROLLBACK") { try $0.run() } }
    }
}

/// Learns whether a COMMIT in WAL mode reached its commit record, through the WAL hook that
/// SQLite calls only after a successful commit.
///
/// While it watches, it stands in for SQLite's default hook (the automatic checkpoint every
/// 1000 pages), running that checkpoint itself; ``end()`` puts the default back.
private final class CommitWatch {
    private let handle: OpaquePointer
    private(set) var didCommit = false
    /// SQLite's default `wal_autocheckpoint`.
    private static let autocheckpointPages: Int32 = 1_000

    init(_ handle: OpaquePointer) {
        self.handle = handle
        sqlite3_wal_hook(handle, { context, connection, schema, frames in
            guard let context else { return SQLITE_OK }
            Unmanaged<CommitWatch>.fromOpaque(context).takeUnretainedValue().didCommit = true
            guard frames >= CommitWatch.autocheckpointPages else { return SQLITE_OK }
            return sqlite3_wal_checkpoint_v2(connection, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    func end() {
        sqlite3_wal_autocheckpoint(handle, Self.autocheckpointPages)
    }
}
