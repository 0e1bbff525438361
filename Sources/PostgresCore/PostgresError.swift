import LibPQ

/// An error from PostgreSQL or libpq, carrying what is needed to understand it without a
/// debugger: the SQLSTATE, the server's severity, message, detail and hint, the constraint that
/// refused a write, and the SQL that was running — never the values of its parameters.
///
/// ``kind`` sorts errors into what a caller can act on: reconnect, retry the transaction, report
/// a refused write, or give up.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What a caller can do about an error.
    public enum Kind: Sendable, Equatable {
        /// libpq could not be loaded: it is not installed (Debian: `libpq5`), or the library
        /// found lacks a function PostgresCore needs. Nothing was attempted; no server was
        /// contacted. See ``PostgresClientLibrary``.
        case libraryUnavailable
        /// The connection string could not be parsed (an unknown keyword, a malformed URI), or a
        /// value in it is not one libpq takes (a port that is not a number, an unknown `sslmode`).
        case invalidConnectionString
        /// No connection could be made: every host refused or timed out, authentication failed,
        /// or no host accepted the requested `target_session_attrs`.
        case connectionFailed
        /// An open connection broke (the server went away, was shut down or restarted; SQLSTATE
        /// class 08, or 57P01-57P03). Reconnecting may help; a write in flight may or may not
        /// have been committed.
        case connectionLost
        /// A constraint refused the write: CHECK, NOT NULL, UNIQUE, FOREIGN KEY or EXCLUDE
        /// (SQLSTATE class 23). ``constraintName`` names it when the server says.
        case constraintViolation
        /// The transaction lost a race and can be retried as a whole: `serialization_failure`
        /// (40001) or `deadlock_detected` (40P01).
        case serializationFailure
        /// The statement ran out of time: `statement_timeout` or a cancel request (57014,
        /// `query_canceled`), or `lock_timeout` (55P03).
        case timedOut
        /// A value read from a result did not have the type asked for (NULL, or text that does
        /// not parse).
        case unexpectedValue
        /// Anything else: a syntax error, a missing table, a permission refused, ...
        case other
    }

    /// What a caller can do about this error.
    public let kind: Kind
    /// The five-character SQLSTATE, such as `23514` for a CHECK violation; nil for errors that
    /// libpq raised on its own (a connection failure, say).
    public let sqlState: String?
    /// The server's severity, not localized: `ERROR`, `FATAL` or `PANIC`; nil from libpq.
    public let severity: String?
    /// The primary message.
    public let message: String
    /// The server's detail line, when it sent one.
    public let detail: String?
    /// The server's hint, when it sent one.
    public let hint: String?
    /// The name of the constraint that refused the write, when the server names one.
    public let constraintName: String?
    /// The table the error concerns, when the server names one.
    public let tableName: String?
    /// The SQL that failed, when the failure belongs to a statement. Parameter values are never
    /// recorded.
    public let sql: String?
    /// True when the connection broke during COMMIT: the transaction may or may not have been
    /// committed, so a caller must not report the write as failed (nor retry it blindly).
    public let isCommitOutcomeUnknown: Bool

    /// Creates an error from its parts.
    public init(kind: Kind, sqlState: String? = nil, severity: String? = nil, message: String, detail: String? = nil,
                hint: String? = nil, constraintName: String? = nil, tableName: String? = nil, sql: String? = nil,
                isCommitOutcomeUnknown: Bool = false) {
        self.kind = kind
        self.sqlState = sqlState
        self.severity = severity
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraintName = constraintName
        self.tableName = tableName
        self.sql = sql
        self.isCommitOutcomeUnknown = isCommitOutcomeUnknown
    }

    /// The same error, marked as having happened during COMMIT with an unknown outcome.
    func commitOutcomeUnknown() -> PostgresError {
        PostgresError(kind: kind, sqlState: sqlState, severity: severity, message: message, detail: detail, hint: hint,
                      constraintName: constraintName, tableName: tableName, sql: sql, isCommitOutcomeUnknown: true)
    }

    /// True for errors that mean "run the whole transaction again": serialization failures and
    /// deadlocks. Whether that is safe is the caller's call (see ``Connection/retryingTransaction(isolation:maxAttempts:_:)``).
    public var isRetryableTransactionFailure: Bool { kind == .serializationFailure }

    /// One line: SQLSTATE, message, constraint, detail, and the SQL that failed.
    ///
    /// The detail of a constraint violation is left out: the server writes the refused row's
    /// values there ("Failing row contains (...)", "Key (id)=(...) already exists"), and values
    /// must not reach logs. It stays available in ``detail``.
    public var description: String {
        var text = sqlState.map { "\($0): " } ?? ""
        text += message
        if let constraintName { text += " (constraint \(constraintName))" }
        if isCommitOutcomeUnknown {
            text += "; the connection broke during COMMIT, the write may or may not have been saved"
        }
        if let detail, kind != .constraintViolation { text += " — \(PostgresError.oneLine(detail))" }
        if let sql { text += " — in `\(PostgresError.oneLine(sql))`" }
        return text
    }

    static func oneLine(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return collapsed.count > 200 ? String(collapsed.prefix(200)) + "…" : collapsed
    }

    /// The kind an error with `sqlState` belongs to.
    static func kind(forSQLState sqlState: String) -> Kind {
        switch sqlState {
        case "40001", "40P01": return .serializationFailure
        case "57014", "55P03": return .timedOut
        case "57P01", "57P02", "57P03": return .connectionLost
        default:
            if sqlState.hasPrefix("23") { return .constraintViolation }
            if sqlState.hasPrefix("08") { return .connectionLost }
            return .other
        }
    }

    /// Reads the error a failed result carries; when the connection itself broke, the error is
    /// classified as ``Kind/connectionLost`` whatever the result says.
    init(result: OpaquePointer?, connection: Connection, sql: String?) {
        let pq = connection.pq
        func field(_ code: Int32) -> String? {
            guard let result, let value = pq.PQresultErrorField(result, code) else { return nil }
            return String(cString: value)
        }
        let sqlState = field(clibpq_diag_sqlstate)
        let connectionBroke = pq.PQstatus(connection.handle) == CONNECTION_BAD
        var message = field(clibpq_diag_message_primary)
        if message == nil {
            let raw = result.flatMap { pq.PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
            message = raw.isEmpty ? pq.errorMessage(connection.handle) : raw
        }
        let text = (message ?? "").trimmingTrailingNewlines()
        let kind: Kind = connectionBroke ? .connectionLost : sqlState.map(PostgresError.kind(forSQLState:)) ?? .other
        self.init(kind: kind, sqlState: sqlState, severity: field(clibpq_diag_severity),
                  message: text.isEmpty ? "the connection to the server was lost" : text,
                  detail: field(clibpq_diag_message_detail), hint: field(clibpq_diag_message_hint),
                  constraintName: field(clibpq_diag_constraint_name), tableName: field(clibpq_diag_table_name), sql: sql)
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last.isNewline || last == " " { text = text.dropLast() }
        return String(text)
    }
}
