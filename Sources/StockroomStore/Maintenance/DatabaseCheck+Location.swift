import TextFormats

extension DatabaseCheck {
    /// Checks the inventory at `location` without changing it, on either engine: a file as
    /// ``run(onFileAt:busyTimeout:migrations:)`` does, a server database in one
    /// read-only snapshot (its own rules instead of `integrity_check` and `foreign_key_check`).
    ///
    /// - Throws: ``BackupError/databaseMissing(_:)`` when there is no file (none is created);
    ///   the engine's error when the check cannot run (busy, no server, connection lost).
    public static func run(at location: DatabaseLocation, busyTimeout: Duration = .seconds(5)) throws -> Report {
        switch location {
        case .file(let path):
            try run(onFileAt: path, busyTimeout: busyTimeout)
        case .postgres(let uri):
            try run(onServer: try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds))
        }
    }

    /// Checks the inventory at `location`, the busy timeout in milliseconds.
    @available(*, deprecated, renamed: "run(at:busyTimeout:)")
    public static func run(at location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws -> Report {
        try run(at: location, busyTimeout: .milliseconds(busyTimeoutMilliseconds))
    }
}
