import TextFormats

extension Connection {
    /// Limits how long any one statement on this connection may run (`statement_timeout`); a
    /// statement that runs longer fails with a ``PostgresError`` of kind
    /// ``PostgresError/Kind/timedOut``. nil removes the limit. PostgreSQL counts it in whole
    /// milliseconds and reads 0 as no limit, so a limit shorter than 1 ms is 1 ms.
    public func setStatementTimeout(_ limit: Duration?) throws {
        try setSetting("statement_timeout", to: String(limit.map { max($0.clampedMilliseconds, 1) } ?? 0))
    }

    /// ``setStatementTimeout(_:)``, the limit in milliseconds (nil or 0: none).
    @available(*, deprecated, renamed: "setStatementTimeout(_:)")
    public func setStatementTimeout(milliseconds: Int?) throws {
        try setSetting("statement_timeout", to: String(milliseconds ?? 0))
    }

    /// Sets a run-time parameter for the rest of the session, or with `local` only until the
    /// current transaction ends (`set_config`, so the value travels as a parameter). A session
    /// setting is made again after ``reset()``.
    public func setSetting(_ name: String, to value: String, local: Bool = false) throws {
        try query("SELECT set_config($1, $2, $3)", name, value, local)
        guard !local else { return }
        sessionSettings.removeAll { $0.name == name }
        sessionSettings.append((name, value))
    }

    /// The current value of a run-time parameter, as `SHOW` prints it (`current_setting`).
    public func setting(_ name: String) throws -> String {
        try query("SELECT current_setting($1)", name).scalar(String.self)
    }
}
