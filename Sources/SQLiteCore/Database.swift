import CSQLite
import FoundationEssentials
import Glibc
import TextFormats

/// One connection to a SQLite database file.
///
/// A `Database` is used from one thread at a time (it is not `Sendable`). Opening it read-write
/// configures the file for safe concurrent use by several processes:
/// - WAL journal, so readers never block the writer and the writer never blocks readers;
/// - `synchronous=FULL`, so a commit that returned is durable even across power loss
///   (WAL with `NORMAL` only survives application crashes);
/// - `foreign_keys=ON`;
/// - a busy timeout, so a connection waits for another process's write lock instead of failing.
public final class Database {
    /// How to open the file.
    public enum OpenMode: Sendable {
        /// Open for reading and writing, creating the file when it does not exist.
        case readWriteCreate
        /// Open for reading and writing; fail when the file does not exist.
        case readWrite
        /// Open for reading only; fail when the file does not exist.
        case readOnly
        /// Open for reading and writing but refuse every change (`PRAGMA query_only`), keeping
        /// the file's journal mode; fail when the file does not exist. For inspecting a file
        /// without changing it: unlike `readOnly`, SQLite parses the schema's CHECK constraints
        /// (so `integrity_check` tests them), and the last connection to close removes the
        /// `-wal` and `-shm` files instead of leaving them behind. When the file's `-wal` already
        /// holds frames, closing does not checkpoint them into the file: the file is left
        /// byte-identical. A write-protected file is opened for reading only.
        case queryOnly
        /// Open for reading and writing without touching the file: no journal-mode switch, no
        /// pragma that writes; fail when the file does not exist. The caller inspects the file
        /// first (its tables, its migrations) and only then calls ``prepareForWriting()``, so
        /// that a file it refuses stays byte-identical.
        case readWriteInspectFirst
    }

    /// Connection settings applied when the database is opened.
    public struct Configuration: Sendable {
        /// How long to wait for a lock held by another connection before failing with
        /// `SQLITE_BUSY` (SQLite counts it in whole milliseconds, up to `Int32.max`).
        public var busyTimeout: Duration
        /// Whether foreign-key constraints are enforced.
        public var foreignKeys: Bool

        /// The defaults: a 5 second busy timeout and enforced foreign keys.
        public init(busyTimeout: Duration = .seconds(5), foreignKeys: Bool = true) {
            self.busyTimeout = busyTimeout
            self.foreignKeys = foreignKeys
        }

        /// The busy timeout in milliseconds: ``busyTimeout``, which time limits are given as.
        @available(*, deprecated, renamed: "busyTimeout")
        public var busyTimeoutMilliseconds: Int32 {
            get { busyTimeout.clampedMilliseconds }
            set { busyTimeout = .milliseconds(newValue) }
        }

        /// A configuration with a busy timeout in milliseconds: ``init(busyTimeout:foreignKeys:)``.
        @available(*, deprecated, renamed: "init(busyTimeout:foreignKeys:)")
        public init(busyTimeoutMilliseconds: Int32, foreignKeys: Bool = true) {
            self.init(busyTimeout: .milliseconds(busyTimeoutMilliseconds), foreignKeys: foreignKeys)
        }
    }

    /// The path the connection was opened with.
    public let path: String
    /// Whether the connection was opened read-only.
    public let isReadOnly: Bool
    /// How long to wait for another connection's lock, as SQLite counts it: whole milliseconds.
    public let busyTimeout: Duration
    /// ``busyTimeout`` in milliseconds.
    @available(*, deprecated, renamed: "busyTimeout")
    public var busyTimeoutMilliseconds: Int32 { busyTimeout.clampedMilliseconds }
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    /// Whether an ``ExecutionTimeLimit`` holds the connection's one progress handler.
    var progressHandlerTaken = false
    /// Set by ``prepareForWritingOnFirstChange()`` on a file still in a rollback-journal mode,
    /// until a committed write transaction that changed rows has switched it to WAL.
    var switchesToWriteAheadLogAfterChange = false

    /// Opens (and, with `.readWriteCreate`, creates) the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened, is not a database, or cannot be
    ///   configured (for example `SQLITE_NOTADB` for a text file, `SQLITE_CANTOPEN` for a missing
    ///   directory).
    public init(path: String, mode: OpenMode = .readWriteCreate, configuration: Configuration = Configuration()) throws {
        HeapPadding.applied
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .queryOnly, .readWriteInspectFirst: flags |= SQLITE_OPEN_READWRITE
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(connection: connection, code: code)
            sqlite3_close_v2(connection)
            throw SQLiteError(extendedCode: error.extendedCode, message: "\(error.message): \(path)")
        }
        self.handle = connection
        self.path = path
        self.isReadOnly = mode == .readOnly || mode == .queryOnly
        let milliseconds = configuration.busyTimeout.clampedMilliseconds
        self.busyTimeout = .milliseconds(milliseconds)
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, milliseconds)
        do {
            switch mode {
            case .readWriteCreate, .readWrite:
                // Reading the header here also surfaces SQLITE_NOTADB before any real work.
                try prepareForWriting()
            case .readWriteInspectFirst:
                break
            case .readOnly, .queryOnly:
                if mode == .queryOnly {
                    try execute("PRAGMA query_only = ON")
                    if Self.writeAheadLogHoldsFrames(path) { keepWriteAheadLogOnClose() }
                }
                try execute("SELECT count(*) FROM sqlite_schema")
            }
            try execute("PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(connection)
            throw error
        }
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Makes the connection ready to write: WAL journal and `synchronous=FULL`.
    ///
    /// Switching a file in rollback-journal mode to WAL needs the exclusive lock, and SQLite
    /// answers a connection that would have to upgrade its lock with `SQLITE_BUSY` at once,
    /// without calling the busy handler. So the switch is retried, with a short growing pause,
    /// until the busy timeout has really passed; then it fails with `SQLITE_BUSY` saying so.
    /// An in-memory database stays in its `memory` journal mode.
    public func prepareForWriting() throws {
        try retryingWhileBusy {
            let statement = try prepare("PRAGMA journal_mode = WAL")
            let mode = try statement.step() ? statement.text(at: 0).lowercased() : ""
            guard mode == "wal" || mode == "memory" else {
                // Another connection of this process holds the file, or a lock kept it: retry.
                throw SQLiteError(extendedCode: SQLITE_BUSY, message: "the journal mode stayed \(mode), not wal")
            }
        }
        try execute("PRAGMA synchronous = FULL")
    }

    /// Makes the connection ready to write without writing anything yet, for a command that
    /// may still be refused: `synchronous=FULL` now, and a file in a rollback-journal mode
    /// (`DELETE`, `TRUNCATE`, `PERSIST`: restored or made by another tool) keeps that mode
    /// until a ``writeTransaction(_:)`` of this connection has committed a change to rows;
    /// only then is it switched to WAL, as ``prepareForWriting()`` does.
    ///
    /// Why not at once: the switch rewrites the file's header (and leaves a `-wal`), so a
    /// command refused inside its transaction (an id that matches nothing, an import with a bad
    /// row), which rolls back, would still have changed the file. Until the switch the
    /// connection writes through a rollback journal, which is as safe for several processes,
    /// only less concurrent: `BEGIN IMMEDIATE` waits for the write lock on the busy handler,
    /// and COMMIT waits there for readers to let go. Other connections see the switch in the
    /// file's header at their next transaction and follow it.
    public func prepareForWritingOnFirstChange() throws {
        let mode = try withStatement("PRAGMA journal_mode") { try $0.step() ? $0.text(at: 0).lowercased() : "" }
        switchesToWriteAheadLogAfterChange = mode != "wal" && mode != "memory"
        try execute("PRAGMA synchronous = FULL")
    }

    /// After a committed change on a connection opened with ``prepareForWritingOnFirstChange()``:
    /// switches the file to WAL. The change is already durable, so a switch that does not
    /// happen (other processes keep the file locked past the busy timeout) is not the
    /// command's failure: the file stays in its rollback journal, which is safe, and the next
    /// committed change tries again.
    func switchToWriteAheadLogAfterChange() {
        guard switchesToWriteAheadLogAfterChange else { return }
        guard (try? prepareForWriting()) != nil else { return }
        switchesToWriteAheadLogAfterChange = false
    }

    /// Runs `body` again, after a short pause that grows from 1 to 25 ms, for as long as it
    /// fails with `SQLITE_BUSY` (any extended code: `_SNAPSHOT`, `_RECOVERY`) and the busy
    /// timeout has not passed. For the steps where SQLite reports BUSY without waiting on the
    /// busy handler itself: a journal-mode switch, a first read while another process recovers
    /// the WAL.
    public func retryingWhileBusy<T>(_ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: busyTimeout)
        var pause = Duration.milliseconds(1)
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && sqlite3_get_autocommit(handle) != 0 {
                let now = clock.now
                guard now < deadline else { throw error }
                Self.sleep(min(pause, now.duration(to: deadline)))
                pause = min(pause * 2, .milliseconds(25))
            }
        }
    }

    /// Sleeps for `duration` (nanosleep: Foundation's Thread is not linked, see BENCHMARKS.md, W6).
    private static func sleep(_ duration: Duration) {
        let parts = duration.components
        var request = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1, errno == EINTR { request = remaining }
    }

    /// Whether `path`'s `-wal` file exists and is not empty.
    static func writeAheadLogHoldsFrames(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    /// Closing this connection will not checkpoint the WAL into the database file (which would
    /// change its bytes), even when it is the last connection.
    func keepWriteAheadLogOnClose() {
        _ = csqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nil)
    }

    /// The version of the SQLite library in use, e.g. "3.40.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: Statements

    /// Compiles one SQL statement. Prefer ``cachedStatement(_:)`` for SQL that runs repeatedly.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Returns a compiled statement for `sql`, compiling it only the first time.
    ///
    /// The statement is reset and its bindings cleared before it is returned. Callers must
    /// `reset()` it when they stop stepping before the end (``withStatement(_:_:)`` does this).
    @inline(__always)
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try Statement(database: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `body` with the cached statement for `sql`, and resets it afterwards so it never
    /// holds a read snapshot open.
    @inline(__always)
    public func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs `body` and returns its result, or nil when the statements it runs took more than
    /// about `instructions` SQLite virtual-machine instructions between them: the statement
    /// running then fails with `SQLITE_INTERRUPT`, which ends `body`. A budget in work done,
    /// not time, so the same data gives the same outcome on a loaded machine (a read statement
    /// interrupted leaves the transaction open). While an ``ExecutionTimeLimit`` holds the
    /// progress handler, `body` runs without a budget.
    public func withInstructionBudget<T>(_ instructions: Int, _ body: () throws -> T) throws -> T? {
        guard !progressHandlerTaken else { return try body() }
        // SQLite calls the handler every `granularity` instructions; the box counts the calls.
        let granularity: Int32 = 1_000
        let calls = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        calls[0] = 0
        calls[1] = max(1, instructions / Int(granularity))
        progressHandlerTaken = true
        sqlite3_progress_handler(handle, granularity, { context in
            guard let count = context?.assumingMemoryBound(to: Int.self) else { return 0 }
            count[0] += 1
            return count[0] >= count[1] ? 1 : 0
        }, calls)
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            progressHandlerTaken = false
            calls.deallocate()
        }
        do {
            return try body()
        } catch let error as SQLiteError where error.isInterrupted && calls[0] >= calls[1] {
            // Only this budget's own interrupt means "spent"; another (sqlite3_interrupt from
            // a canceller) is the caller's to see.
            return nil
        }
    }

    /// Runs every statement in `sql` in order (a script separated by semicolons).
    ///
    /// - Throws: ``SQLiteError`` whose `sql` is the single statement that failed.
    public func execute(_ sql: String) throws {
        try forEachStatement(in: sql) { statement in try statement.run() }
    }

    /// Compiles the statements of a script one at a time and hands each to `body`, so that a
    /// failure can be attributed to the exact statement. Each statement is compiled only after
    /// the previous one ran, so later statements may refer to tables created by earlier ones.
    public func forEachStatement(in script: String, _ body: (Statement) throws -> Void) throws {
        var utf8 = Array(script.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard var cursor = UnsafePointer(buffer.baseAddress) else { return }
            let end = cursor + buffer.count - 1
            while cursor < end {
                var compiled: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, cursor, Int32(end - cursor), &compiled, &tail)
                let text = Statement.text(from: cursor, to: tail ?? end)
                guard code == SQLITE_OK else {
                    // On failure the tail points where parsing stopped, mid-statement; report
                    // the whole statement so a message can name it.
                    let failed = Statement.wholeStatement(from: cursor, to: end)
                    throw SQLiteError(connection: handle, code: code, sql: String(failed.trimmed { $0.isWhitespace }))
                }
                guard let tail else { sqlite3_finalize(compiled); return }
                defer { cursor = tail }
                guard let compiled else { continue } // whitespace or a comment
                let statement = Statement(database: self, sql: String(text.trimmed { $0.isWhitespace }), compiled: compiled)
                try body(statement)
            }
        }
    }

    // MARK: State

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True when no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// A handle that can stop this connection's running statement from any thread.
    public var interrupter: Interrupter { Interrupter(handle: handle) }

    /// Stops the statement running on a connection; safe to use from another thread.
    public struct Interrupter: @unchecked Sendable {
        // sqlite3_interrupt is documented as safe to call from any thread while the
        // connection is open, which is what makes this handle Sendable.
        let handle: OpaquePointer

        /// Makes the running statement fail with `SQLITE_INTERRUPT` at its next check.
        public func interrupt() { sqlite3_interrupt(handle) }
    }

    /// The raw `sqlite3*` handle, for features the core does not wrap (the backup API, limits).
    public var rawHandle: OpaquePointer { handle }
}

extension Statement {
    convenience init(database: Database, sql: String, compiled: OpaquePointer) {
        self.init(unchecked: database, sql: sql, handle: compiled)
    }

    /// The text from `start` through the first semicolon that completes a statement
    /// (`sqlite3_complete`, so semicolons inside literals, comments and triggers do not count),
    /// or through `end` when none does.
    static func wholeStatement(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
        var position = start
        while position < end {
            if position.pointee == 0x3B { // ;
                let candidate = text(from: start, to: position + 1)
                if sqlite3_complete(candidate) != 0 { return candidate }
            }
            position += 1
        }
        return text(from: start, to: end)
    }

    static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
        let count = end - start
        return start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
