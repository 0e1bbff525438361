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

            Exit codes: \(Failure.Code.usage.rawValue) the SQL was refused before running (it does not compile, names a missing \
            table or column, writes, holds several statements, or takes a different number of \
            parameters, or uses ATTACH, load_extension() or fts3_tokenizer()); \(Failure.Code.dataError.rawValue) it failed while \
            running, including a value longer than --max-value-length (default 16 MiB) or more \
            memory than --max-memory (default 128 MB for SQLite; the whole process stays under 256 \
            MB); \(Failure.Code.notFound.rawValue) no database file; \(Failure.Code.ioError.rawValue) not a database; \(Failure.Code.busy.rawValue) it ran past --timeout.

            On a PostgreSQL database the statement runs in a READ ONLY transaction, which the \
            server enforces (a write is refused with \(Failure.Code.usage.rawValue) before it changes anything), with \
            --timeout as statement_timeout; rows stream one at a time. --max-memory applies to \
            SQLite only.
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

    @Option(help: ArgumentHelp("Seconds SQLite may spend running the query before it is stopped with exit code \(Failure.Code.busy.rawValue); 0 for no limit.",
                               valueName: "seconds"))
    var timeout: Double = 30

    @Option(help: ArgumentHelp("The longest string or blob, in bytes, any value may be; a longer one stops the query with exit code \(Failure.Code.dataError.rawValue).",
                               valueName: "bytes"))
    var maxValueLength: Int = Int(QueryResourceLimits.default.maximumValueLength)

    @Option(help: ArgumentHelp("Megabytes of memory SQLite may use for the query; past it the query stops with exit code \(Failure.Code.dataError.rawValue).",
                               valueName: "megabytes"))
    var maxMemory: Int = Int(QueryResourceLimits.default.maximumMemory >> 20)

    func validate() throws {
        guard timeout.isFinite, timeout >= 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be between 0 and 86400 seconds")
        }
        guard (1_000...1_000_000_000).contains(maxValueLength) else {
            throw ValidationError("--max-value-length must be between 1000 and 1000000000 bytes")
        }
        guard (16...1_048_576).contains(maxMemory) else {
            throw ValidationError("--max-memory must be between 16 and 1048576 megabytes")
        }
    }

    private var limits: QueryResourceLimits {
        let memory = Int64(maxMemory) << 20
        return QueryResourceLimits(maximumValueLength: Int32(maxValueLength), maximumMemory: memory,
                                   cacheSize: min(QueryResourceLimits.default.cacheSize, memory / 8))
    }

    func run() throws {
        if case .postgres(let uri) = database.resolvedLocation() {
            try runOnServer(uri)
            return
        }
        let connection = try database.requireExistingForQuery()
        try connection.hardenForUntrustedQueries()
        try connection.limitResources(limits)
        let statement = try prepare(on: connection)
        guard statement.parameterCount == parameters.count else {
            throw parameterMismatch(placeholders: statement.parameterCount)
        }
        do {
            for (index, value) in parameters.enumerated() { try statement.bind(value, at: index) }
        } catch let error as SQLiteError {
            throw failure(whileRunning: error)
        }

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

    /// The refusal of a query that ran past --timeout, on either engine.
    var timedOut: Failure.Message {
        Failure.Message(code: .busy, description:
            "the query ran past the time limit of \(timeout.formatted) seconds and was stopped; narrow it or raise --timeout")
    }

    /// The refusal of a value longer than --max-value-length, on either engine.
    var valueTooLong: Failure.Message {
        Failure.Message(code: .dataError, description:
            "the query built or read a value longer than \(maxValueLength) bytes and was stopped; narrow it or raise --max-value-length")
    }

    /// The refusal of a parameter count that does not match the placeholders, on either engine.
    func parameterMismatch(placeholders: Int) -> Failure.Message {
        Failure.Message(code: .usage, description:
            "the query has \(placeholders) placeholder\(placeholders == 1 ? "" : "s") but \(parameters.count) --param value\(parameters.count == 1 ? " was" : "s were") given")
    }

    private func failure(whileRunning error: SQLiteError) -> any Error {
        if error.isInterrupted { return timedOut }
        if error.primaryResult == .tooBig { return valueTooLong }
        if error.primaryResult == .noMemory {
            return Failure.Message(code: .dataError, description:
                "the query needed more than \(maxMemory) MB of memory and was stopped; narrow it or raise --max-memory")
        }
        if error.primaryResult == .readOnly {
            // The read-only connection caught a write that SQLite's read-only check let through.
            return Failure.Message(code: .usage, description: "the statement tried to write, and stockroom query only reads (\(error.message))")
        }
        if error.isBusy || error.isFileProblem { return error }
        return Failure.Message(code: .dataError, description: "the query failed while running: \(error.message)")
    }
}

extension Double {
    /// `30` rather than `30.0`.
    var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}
