extension DatabaseCheck {
    /// Checks the inventory at `location` without changing it, on either engine: a file as
    /// ``run(onFileAt:busyTimeoutMilliseconds:migrations:)`` does, a server database in one
    /// read-only snapshot (its own rules instead of `integrity_check` and `foreign_key_check`).
    ///
    /// - Throws: ``BackupError/databaseMissing(_:)`` when there is no file (none is created);
    ///   the engine's error when the check cannot run (busy, no server, connection lost).
    public static func run(at location: DatabaseLocation, busyTimeoutMilliseconds: Int32 = 5_000) throws -> Report {
        switch location {
        case .file(let path):
            try run(onFileAt: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        case .postgres(let uri):
            try run(onServer: try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        }
    }
}
