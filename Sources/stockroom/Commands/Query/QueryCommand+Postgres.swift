import PostgresCore

// `stockroom query` on a PostgreSQL server: the same command line, writers and exit codes as
// on a file. What makes it read-only differs: SQLite refuses a writing statement when it is
// prepared; PostgreSQL runs the statement in a READ ONLY transaction (and the session's
// default_transaction_read_only), so a write fails with SQLSTATE 25006 before it changes
// anything, and the transaction is rolled back in any case.

extension QueryCommand {
    /// Runs the query on the server at `uri`, streaming its rows to the writer.
    func runOnServer(_ uri: String) throws {
        let connection = try Connection(uri)
        // Literal numbers only: nothing the user typed is spliced into this SQL.
        let timeoutMilliseconds = Int((timeout * 1000).rounded())
        try connection.execute("""
            SET default_transaction_read_only = on; SET bytea_output = hex; \
            SET lock_timeout = \(max(database.busyTimeoutMilliseconds, 1)); \
            BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; \
            SET LOCAL statement_timeout = \(timeoutMilliseconds)
            """)
        let statement: DescribedStatement
        do {
            statement = try connection.describe(sql)
        } catch let error as PostgresError where error.isAboutTheSQL {
            throw Failure.Message(code: .usage, description: "cannot run the query: \(error.message)")
        }
        guard statement.parameterCount == parameters.count else {
            throw parameterMismatch(placeholders: statement.parameterCount)
        }

        let kinds = statement.columns.map { PostgresResultValue.Kind(typeOID: $0.typeOID) }
        var writer = format.resultWriter()
        // The header waits for the first row: a statement refused while running (a write)
        // prints nothing, as SQLite refuses it before anything is printed.
        var hasBegun = false
        func begin() {
            guard !hasBegun else { return }
            writer.begin(columns: statement.columns.map(\.name))
            hasBegun = true
        }
        do {
            try connection.stream(statement, parameters: parameters) { row in
                var values: [PostgresResultValue] = []
                values.reserveCapacity(kinds.count)
                for (index, kind) in kinds.enumerated() {
                    let length = row.byteCount(at: index)
                    // bytea arrives as `\x` and two hex digits a byte; the limit is on the bytes.
                    guard (kind == .bytes ? (length - 2) / 2 : length) <= maxValueLength else { throw valueTooLong }
                    values.append(PostgresResultValue(row.text(at: index), kind: kind))
                }
                begin()
                writer.write(values)
            }
        } catch let error as PostgresError {
            let failure = failure(whileRunningOnServer: error)
            if (failure as? Failure.Message)?.code != .usage { begin() }
            throw failure
        } catch {
            begin()
            throw error
        }
        begin()
        writer.finish()
        try? connection.execute("ROLLBACK")
    }

    private func failure(whileRunningOnServer error: PostgresError) -> any Error {
        switch error.sqlState {
        case "57014"?:
            return timedOut
        case let state? where state.hasPrefix("25"):
            // 25006: a write in the READ ONLY transaction; 25001: a statement that cannot run in
            // a transaction (VACUUM, CREATE DATABASE).
            return Failure.Message(code: .usage, description: "the statement tried to write, and stockroom query only reads (\(error.message))")
        default:
            return error.isAboutTheSQL
                ? Failure.Message(code: .dataError, description: "the query failed while running: \(error.message)")
                : error
        }
    }
}

private extension PostgresError {
    /// True for an error in the statement itself, as opposed to the connection, a lock wait or
    /// the client library, which keep their own exit codes.
    var isAboutTheSQL: Bool {
        switch kind {
        case .other, .constraintViolation, .unexpectedValue: true
        case .invalidConnectionString, .libraryUnavailable, .connectionFailed, .connectionLost, .serializationFailure, .timedOut: false
        }
    }
}
