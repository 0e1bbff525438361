import ArgumentParser
import SQLiteCore

/// `stockroom query SQL`: one read-only statement against the database, for scripts and people.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one read-only SQL statement and print its rows.",
        discussion: """
            The file is opened read-only and hardened (defensive mode, trusted_schema off, no \
            extensions, no ATTACH); SQLite itself must report the statement read-only, so writes, \
            VACUUM INTO and CREATE TEMP are refused before anything runs. Pass values with \
            --param, bound as text in order to the placeholders (?, ?2, :name), never spliced \
            into the SQL. JSON and CSV stream row by row; the table holds back its first 1000 \
            rows to size its columns, then streams.

            Exit codes: 64 the SQL was refused before running (it does not compile, names a missing \
            table or column, writes, holds several statements, or takes a different number of \
            parameters, or uses ATTACH, load_extension() or fts3_tokenizer()); 65 it failed while \
            running; 66 no database file; 74 not a database; 75 it ran past --timeout.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("One SQL statement that only reads.", valueName: "sql"))
    var sql: String

    @Option(name: .customLong("param"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A value for the next placeholder, bound as text; repeat for each.", valueName: "value"))
    var parameters: [String] = []

    @Option(help: "Output format: table (aligned), json (array of objects, SQLite's types kept) or csv (RFC 4180).")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("Seconds SQLite may spend running the query before it is stopped with exit code 75; 0 for no limit.",
                               valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        guard timeout.isFinite, timeout >= 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be between 0 and 86400 seconds")
        }
    }

    func run() throws {
        let connection = try database.requireExistingReadOnly()
        try connection.hardenForUntrustedQueries()
        let statement = try prepare(on: connection)
        guard statement.parameterCount == parameters.count else {
            throw Failure.Message(code: .usage, description:
                "the query has \(statement.parameterCount) placeholder\(statement.parameterCount == 1 ? "" : "s") but \(parameters.count) --param value\(parameters.count == 1 ? " was" : "s were") given")
        }
        for (index, value) in parameters.enumerated() { try statement.bind(value, at: index) }

        let limit = timeout > 0 ? ExecutionTimeLimit(database: connection, seconds: timeout) : nil
        var writer = format.resultWriter()
        let columns = (0..<statement.columnCount).map(statement.columnName(at:))
        writer.begin(columns: columns)
        do {
            while try limit?.step(statement) ?? statement.step() {
                writer.write(columns.indices.map(statement.value(at:)))
            }
        } catch let error as SQLiteError {
            throw failure(whileRunning: error)
        }
        writer.finish()
    }

    private func prepare(on connection: Database) throws -> Statement {
        do {
            return try connection.prepareReadOnlyQuery(sql)
        } catch let refusal as QueryRefusal {
            throw Failure.Message(code: .usage, description: refusal.description)
        } catch let error as SQLiteError where error.primaryResult == .authorization {
            // SQLite's message is a bare "not authorized"; denied functions name themselves.
            throw Failure.Message(code: .usage, description:
                "cannot run the query: \(error.message) (stockroom query does not allow ATTACH or DETACH)")
        } catch let error as SQLiteError where !error.isBusy && !error.isFileProblem {
            throw Failure.Message(code: .usage, description: "cannot run the query: \(error.message)")
        }
    }

    private func failure(whileRunning error: SQLiteError) -> any Error {
        if error.isInterrupted {
            return Failure.Message(code: .busy, description:
                "the query ran past the time limit of \(timeout.formatted) seconds and was stopped; narrow it or raise --timeout")
        }
        if error.primaryResult == .readOnly {
            // The read-only connection caught a write that SQLite's read-only check let through.
            return Failure.Message(code: .usage, description: "the statement tried to write, and stockroom query only reads (\(error.message))")
        }
        if error.isBusy || error.isFileProblem { return error }
        return Failure.Message(code: .dataError, description: "the query failed while running: \(error.message)")
    }
}

private extension Double {
    /// `30` rather than `30.0`.
    var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}
