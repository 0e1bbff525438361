import PostgresCore

// `stockroom query` on a PostgreSQL server: the same rows, limits and refusals as on a file.
// What makes it read-only differs: SQLite refuses a writing statement when it is prepared;
// PostgreSQL runs the statement in a READ ONLY transaction (and the session's
// default_transaction_read_only), so a write fails with SQLSTATE 25006 before it changes
// anything, and the transaction is rolled back in any case.

extension UntrustedQuery {
    /// Runs the statement on the server at `uri`, streaming its rows.
    func runOnServer(_ uri: String, busyTimeoutMilliseconds: Int32,
                     begin: ([String]) -> Void, row: ([QueryValue]) throws -> Void) throws {
        let connection = try PostgresStoreConnection.connect(uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        // Literal numbers only: nothing the user typed is spliced into this SQL.
        let timeoutMilliseconds = Int((timeoutSeconds * 1000).rounded())
        try connection.execute("""
            SET default_transaction_read_only = on; SET bytea_output = hex; \
            BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; \
            SET LOCAL statement_timeout = \(timeoutMilliseconds)
            """)
        let statement: DescribedStatement
        do {
            statement = try connection.describe(sql)
        } catch let error as PostgresError where error.isAboutTheSQL {
            throw UntrustedQueryError.refused("cannot run the query: \(error.message)")
        }
        guard statement.parameterCount == parameters.count else {
            throw UntrustedQueryError.parameterMismatch(placeholders: statement.parameterCount)
        }

        let kinds = statement.columns.map { QueryValue.Kind(typeOID: $0.typeOID) }
        // The header waits for the first row: a statement refused while running (a write)
        // gives nothing, as SQLite refuses it before anything is given.
        var hasBegun = false
        func beginOnce() {
            guard !hasBegun else { return }
            begin(statement.columns.map(\.name))
            hasBegun = true
        }
        do {
            try connection.stream(statement, parameters: parameters) { cells in
                var values: [QueryValue] = []
                values.reserveCapacity(kinds.count)
                for (index, kind) in kinds.enumerated() {
                    let length = cells.byteCount(at: index)
                    // bytea arrives as `\x` and two hex digits a byte; the limit is on the bytes.
                    guard (kind == .bytes ? (length - 2) / 2 : length) <= maximumValueLength else {
                        throw UntrustedQueryError.valueTooLong
                    }
                    values.append(QueryValue(cells.text(at: index), kind: kind))
                }
                beginOnce()
                try row(values)
            }
        } catch let error as PostgresError {
            let failure = failure(whileRunningOnServer: error)
            if case UntrustedQueryError.wrote? = failure as? UntrustedQueryError {} else { beginOnce() }
            throw failure
        } catch {
            beginOnce()
            throw error
        }
        beginOnce()
        try? connection.execute("ROLLBACK")
    }

    private func failure(whileRunningOnServer error: PostgresError) -> any Error {
        switch error.sqlState {
        case "57014"?:
            return UntrustedQueryError.timedOut
        case let state? where state.hasPrefix("25"):
            // 25006: a write in the READ ONLY transaction; 25001: a statement that cannot run in
            // a transaction (VACUUM, CREATE DATABASE).
            return UntrustedQueryError.wrote(error.message)
        default:
            return error.isAboutTheSQL ? UntrustedQueryError.failed(error.message) : error
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
