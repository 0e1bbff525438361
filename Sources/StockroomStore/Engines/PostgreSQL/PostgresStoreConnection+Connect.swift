import PostgresCore

extension PostgresStoreConnection {
    /// Connects to the PostgreSQL database at `uri` for a command: the one place a `--db`
    /// URI becomes a connection. With `busyTimeoutMilliseconds`, a statement waits that long
    /// for a lock another session holds (``PostgresCore/Connection/waitForLocks(milliseconds:)``);
    /// without it, as long as the server's own `lock_timeout` says.
    ///
    /// - Throws: ``PostgresError``.
    static func connect(_ uri: String, busyTimeoutMilliseconds: Int32?) throws -> Connection {
        let connection = try Connection(uri)
        if let busyTimeoutMilliseconds { try connection.waitForLocks(milliseconds: busyTimeoutMilliseconds) }
        return connection
    }
}
