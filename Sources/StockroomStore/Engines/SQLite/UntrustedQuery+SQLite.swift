import SQLiteCore

// `stockroom query` on a file: opened query-only and hardened (defensive mode, trusted_schema
// off, no extensions, no ATTACH); SQLite itself must report the statement read-only, so a
// write is refused before anything runs.

extension UntrustedQuery {
    /// Runs the statement on the file at `path`, streaming its rows.
    func runOnFile(_ path: String, busyTimeoutMilliseconds: Int32,
                   begin: ([String]) -> Void, row: ([QueryValue]) throws -> Void) throws {
        guard let (connection, _) = try DatabaseFile.openForReading(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, accepting: [.foreign, .untrustedMigrations]
        ) else { throw UntrustedQueryError.noDatabase(path: path) }
        try connection.hardenForUntrustedQueries()
        try connection.limitResources(QueryResourceLimits(
            maximumValueLength: Int32(maximumValueLength), maximumMemory: maximumMemory,
            cacheSize: min(QueryResourceLimits.default.cacheSize, maximumMemory / 8)))
        let statement = try prepare(on: connection)
        guard statement.parameterCount == parameters.count else {
            throw UntrustedQueryError.parameterMismatch(placeholders: statement.parameterCount)
        }
        do {
            for (index, value) in parameters.enumerated() { try statement.bind(value, at: index) }
        } catch let error as SQLiteError {
            throw failure(whileRunning: error)
        }

        let limit = timeoutSeconds > 0 ? ExecutionTimeLimit(database: connection, seconds: timeoutSeconds) : nil
        let columns = (0..<statement.columnCount).map(statement.columnName(at:))
        begin(columns)
        do {
            while try limit?.step(statement) ?? statement.step() {
                try row(columns.indices.map { QueryValue(statement.value(at: $0)) })
            }
        } catch let error as SQLiteError {
            throw failure(whileRunning: error)
        }
    }

    private func prepare(on connection: Database) throws -> Statement {
        do {
            return try connection.prepareReadOnlyQuery(sql)
        } catch let refusal as QueryRefusal {
            throw UntrustedQueryError.refused(refusal.description)
        } catch let error as SQLiteError where error.primaryResult == .authorization {
            // SQLite's message is a bare "not authorized"; denied functions name themselves.
            throw UntrustedQueryError.refused(
                "cannot run the query: \(error.message) (stockroom query does not allow ATTACH or DETACH)")
        } catch let error as SQLiteError where !error.isBusy && !error.isFileProblem {
            throw UntrustedQueryError.refused("cannot run the query: \(error.message)")
        }
    }

    private func failure(whileRunning error: SQLiteError) -> any Error {
        if error.isInterrupted { return UntrustedQueryError.timedOut }
        if error.primaryResult == .tooBig { return UntrustedQueryError.valueTooLong }
        if error.primaryResult == .noMemory { return UntrustedQueryError.outOfMemory }
        // The read-only connection caught a write that SQLite's read-only check let through.
        if error.primaryResult == .readOnly { return UntrustedQueryError.wrote(error.message) }
        if error.isBusy || error.isFileProblem { return error }
        return UntrustedQueryError.failed(error.message)
    }
}

extension QueryValue {
    /// SQLite's value, as it is.
    @inline(__always)
    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .bytes(bytes)
        }
    }
}

extension UntrustedQuery {
    // SQLite's own limits for an untrusted statement are the defaults on either engine.
    /// The default ``maximumValueLength``: 16 MiB.
    public static let defaultMaximumValueLength = Int(QueryResourceLimits.default.maximumValueLength)
    /// The default ``maximumMemory``: 128 MB, which with the program itself and a row's values
    /// keeps a query's process under 256 MB.
    public static let defaultMaximumMemory = QueryResourceLimits.default.maximumMemory
}
