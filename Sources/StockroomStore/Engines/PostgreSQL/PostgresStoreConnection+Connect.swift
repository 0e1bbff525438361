import PostgresCore
import TextFormats

extension PostgresStoreConnection {
    /// Connects to the PostgreSQL database at `uri` for a command: the one place a `--db`
    /// URI becomes a connection. With `busyTimeoutMilliseconds`, a statement waits that long
    /// for a lock another session holds (``PostgresCore/Connection/waitForLocks(upTo:)``);
    /// without it, as long as the server's own `lock_timeout` says.
    ///
    /// - Throws: ``PostgresError``.
    static func connect(_ uri: String, busyTimeoutMilliseconds: Int32?) throws -> Connection {
        let connection = try Connection(uri)
        if let busyTimeoutMilliseconds { try connection.waitForLocks(upTo: .milliseconds(busyTimeoutMilliseconds)) }
        return connection
    }
}

extension Connection {
    /// How long a statement on this connection waits for a lock another session holds (a row
    /// another command is changing, the migrations' advisory lock) before failing with a
    /// `PostgresError` of kind `timedOut` (55P03): `--busy-timeout` on a server, as SQLite's
    /// busy timeout on a file. PostgreSQL counts it in whole milliseconds, and reads 0 as no
    /// limit, so anything shorter than 1 ms waits 1 ms.
    public func waitForLocks(upTo timeout: Duration) throws {
        try setSetting("lock_timeout", to: String(max(timeout.clampedMilliseconds, 1)))
    }

    /// ``waitForLocks(upTo:)``, the time in milliseconds.
    @available(*, deprecated, renamed: "waitForLocks(upTo:)")
    public func waitForLocks(milliseconds: Int32) throws {
        try waitForLocks(upTo: .milliseconds(milliseconds))
    }
}
