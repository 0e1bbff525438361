import ArgumentParser
import StockroomStore

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
    var maxValueLength: Int = UntrustedQuery.defaultMaximumValueLength

    @Option(help: ArgumentHelp("Megabytes of memory SQLite may use for the query; past it the query stops with exit code \(Failure.Code.dataError.rawValue).",
                               valueName: "megabytes"))
    var maxMemory: Int = Int(UntrustedQuery.defaultMaximumMemory >> 20)

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

    func run() throws {
        let query = UntrustedQuery(sql: sql, parameters: parameters, timeoutSeconds: timeout,
                                   maximumValueLength: maxValueLength, maximumMemory: Int64(maxMemory) << 20)
        var writer = format.resultWriter()
        do {
            try query.run(at: database.resolvedLocation(), busyTimeout: database.busyTimeoutDuration,
                          begin: { writer.begin(columns: $0) }, row: { writer.write($0) })
        } catch let error as UntrustedQueryError {
            throw failure(error)
        }
        writer.finish()
    }

    /// The refusal of a query that ran past --timeout, on either engine.
    private var timedOut: Failure.Message {
        Failure.Message(code: .busy, description:
            "the query ran past the time limit of \(timeout.formatted) seconds and was stopped; narrow it or raise --timeout")
    }

    /// The refusal of a value longer than --max-value-length, on either engine.
    private var valueTooLong: Failure.Message {
        Failure.Message(code: .dataError, description:
            "the query built or read a value longer than \(maxValueLength) bytes and was stopped; narrow it or raise --max-value-length")
    }

    /// The refusal of a parameter count that does not match the placeholders, on either engine.
    private func parameterMismatch(placeholders: Int) -> Failure.Message {
        Failure.Message(code: .usage, description:
            "the query has \(placeholders) placeholder\(placeholders == 1 ? "" : "s") but \(parameters.count) --param value\(parameters.count == 1 ? " was" : "s were") given")
    }

    /// The store's refusal in the command's words and exit codes.
    private func failure(_ error: UntrustedQueryError) -> Failure.Message {
        switch error {
        case .noDatabase(let path): database.missing(path)
        case .refused(let reason): Failure.Message(code: .usage, description: reason)
        case .parameterMismatch(let placeholders): parameterMismatch(placeholders: placeholders)
        case .wrote(let message):
            Failure.Message(code: .usage, description: "the statement tried to write, and stockroom query only reads (\(message))")
        case .timedOut: timedOut
        case .valueTooLong: valueTooLong
        case .outOfMemory:
            Failure.Message(code: .dataError, description:
                "the query needed more than \(maxMemory) MB of memory and was stopped; narrow it or raise --max-memory")
        case .failed(let message): Failure.Message(code: .dataError, description: "the query failed while running: \(message)")
        }
    }
}

extension Double {
    /// `30` rather than `30.0`.
    var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}
