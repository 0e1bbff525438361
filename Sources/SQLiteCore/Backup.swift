import CSQLite

/// How far a page-by-page copy has got.
public struct BackupProgress: Sendable, Equatable {
    /// Pages copied so far.
    public let copiedPages: Int
    /// Pages in the source database.
    public let totalPages: Int

    /// Creates a progress value.
    public init(copiedPages: Int, totalPages: Int) {
        self.copiedPages = copiedPages
        self.totalPages = totalPages
    }
}

/// One run of SQLite's online backup API: copies every page of a source database into a
/// destination database, replacing the destination's whole content in one write transaction.
///
/// The first ``step(pages:)`` takes the destination's write lock (waiting up to the
/// destination's busy timeout) and keeps it until the copy completes or the operation is
/// finished; a copy that does not complete is rolled back. Readers of the destination, in this
/// process or another, go on reading throughout (WAL).
///
/// SQLite restarts the copy from the first page whenever another connection writes to the
/// source between two steps, so under a steady stream of writes a stepped copy never ends.
/// Copy in one step, or use ``Database/copy(into:pagesPerStep:progress:)``, which holds a read
/// transaction on the source across steps.
public final class BackupOperation {
    private let handle: OpaquePointer
    // Both connections must outlive the backup handle, which points into them.
    private let source: Database
    private let destination: Database
    private var isFinished = false

    /// Prepares to copy `source` into `destination` (their `main` databases).
    ///
    /// - Throws: ``SQLiteError`` when `destination` has a transaction open or is `source`.
    public init(from source: Database, into destination: Database) throws {
        guard let handle = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
            throw SQLiteError(connection: destination.handle, code: sqlite3_errcode(destination.handle))
        }
        self.handle = handle
        self.source = source
        self.destination = destination
    }

    deinit {
        if !isFinished { sqlite3_backup_finish(handle) }
    }

    /// Copies up to `pages` more pages, or all that remain when `pages` is negative. A step of
    /// zero pages only takes the destination's write lock.
    ///
    /// - Returns: true when every page is copied and the destination committed.
    /// - Throws: ``SQLiteError``; `SQLITE_BUSY` when the destination stayed locked, or the
    ///   source is in a write transaction on its own connection.
    @discardableResult
    public func step(pages: Int) throws -> Bool {
        let code = sqlite3_backup_step(handle, Int32(clamping: pages))
        switch code {
        case SQLITE_DONE: return true
        case SQLITE_OK: return false
        default:
            // The step reports its failure only through the code: the destination's error
            // message may belong to an earlier statement.
            throw SQLiteError(extendedCode: code, message: String(cString: sqlite3_errstr(code)))
        }
    }

    /// The progress after the latest step (zero before the first).
    public var progress: BackupProgress {
        let total = Int(sqlite3_backup_pagecount(handle))
        return BackupProgress(copiedPages: total - Int(sqlite3_backup_remaining(handle)), totalPages: total)
    }

    /// Ends the operation, rolling the destination back unless the copy completed, and
    /// releases its write lock.
    public func finish() throws {
        guard !isFinished else { return }
        isFinished = true
        let code = sqlite3_backup_finish(handle)
        if code != SQLITE_OK { throw SQLiteError(connection: destination.handle, code: code) }
    }
}

extension Database {
    /// Copies this whole database into `destination` with the online backup API, while other
    /// connections and processes keep reading and writing this one.
    ///
    /// A read transaction on this connection is held across every step, so the copy is one
    /// consistent snapshot and writers elsewhere never make SQLite restart it: it finishes
    /// under any stream of writes. When this connection is already in a read transaction,
    /// that transaction's snapshot is the one copied.
    ///
    /// - Parameters:
    ///   - pagesPerStep: pages copied between two calls of `progress`; negative for one step.
    ///   - progress: called after every step.
    /// - Returns: the final progress: every page copied.
    /// - Throws: ``SQLiteError``; `SQLITE_BUSY` when this connection is in a write transaction.
    @discardableResult
    public func copy(into destination: Database, pagesPerStep: Int = -1,
                     progress: (BackupProgress) -> Void = { _ in }) throws -> BackupProgress {
        if isAutocommit {
            return try readTransaction { try copy(into: destination, pagesPerStep: pagesPerStep, progress: progress) }
        }
        // BEGIN alone takes no snapshot; the first read does, and the transaction keeps it.
        _ = try withStatement("SELECT count(*) FROM sqlite_schema") { try $0.step() }
        let operation = try BackupOperation(from: self, into: destination)
        while try !operation.step(pages: pagesPerStep == 0 ? -1 : pagesPerStep) {
            progress(operation.progress)
        }
        let done = operation.progress
        progress(done)
        try operation.finish()
        return done
    }
}
