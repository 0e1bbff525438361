import TextFormats

/// One read-only SQL statement written by a user (`stockroom query`), run on either engine
/// with its rows streamed as they are read: the header and each row go to the caller's
/// closures, so a large result is never held in memory.
///
/// What makes the statement read-only differs by engine and is the store's business: SQLite
/// opens the file query-only and hardened, and refuses a writing statement when it is
/// prepared; PostgreSQL runs it in a READ ONLY transaction, which the server enforces. Either
/// way nothing is written and nothing is created.
public struct UntrustedQuery: Sendable {
    /// The statement.
    public let sql: String
    /// Values for the placeholders, in order, bound as text (never spliced into the SQL).
    public let parameters: [String]
    /// Seconds the statement may run before it is stopped; 0 for no limit.
    public var timeoutSeconds: Double
    /// The longest string or blob, in bytes, any value may be.
    public var maximumValueLength: Int
    /// Bytes of memory SQLite may use for the statement (SQLite only).
    public var maximumMemory: Int64

    /// A statement with its parameters and limits.
    public init(sql: String, parameters: [String], timeoutSeconds: Double = 30,
                maximumValueLength: Int = defaultMaximumValueLength, maximumMemory: Int64 = defaultMaximumMemory) {
        self.sql = sql
        self.parameters = parameters
        self.timeoutSeconds = timeoutSeconds
        self.maximumValueLength = maximumValueLength
        self.maximumMemory = maximumMemory
    }

    /// Runs the statement on the database at `location`, the busy timeout in milliseconds.
    @available(*, deprecated, renamed: "run(at:busyTimeout:begin:row:)")
    public func run(at location: DatabaseLocation, busyTimeoutMilliseconds: Int32,
                    begin: ([String]) -> Void, row: ([QueryValue]) throws -> Void) throws {
        try run(at: location, busyTimeout: .milliseconds(busyTimeoutMilliseconds), begin: begin, row: row)
    }

    /// Runs the statement on the database at `location`: `begin` is called once with the
    /// column names before any row (on PostgreSQL, with the first row, or before a failure
    /// while running that is not a refusal), then `row` with each row's values in column order.
    ///
    /// - Throws: ``UntrustedQueryError`` for a statement refused or stopped; the engine's own
    ///   error for a lock wait, a file or a connection problem.
    public func run(at location: DatabaseLocation, busyTimeout: Duration,
                    begin: ([String]) -> Void, row: ([QueryValue]) throws -> Void) throws {
        let busyTimeoutMilliseconds = busyTimeout.clampedMilliseconds
        switch location {
        case .file(let path):
            try runOnFile(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, begin: begin, row: row)
        case .postgres(let uri):
            try runOnServer(uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds, begin: begin, row: row)
        }
    }
}

/// Why an ``UntrustedQuery`` was refused or stopped; nothing was written in any case.
public enum UntrustedQueryError: Error, Sendable, Equatable {
    /// There is no database file at the path (none is created).
    case noDatabase(path: String)
    /// The statement was refused before it ran (it does not compile, names a missing table,
    /// uses ATTACH or a denied function): the sentence says why.
    case refused(String)
    /// The statement has this many placeholders, which is not the number of parameters given.
    case parameterMismatch(placeholders: Int)
    /// The statement tried to write; the engine's message.
    case wrote(String)
    /// The statement ran past ``UntrustedQuery/timeoutSeconds``.
    case timedOut
    /// A value was longer than ``UntrustedQuery/maximumValueLength``.
    case valueTooLong
    /// The statement needed more than ``UntrustedQuery/maximumMemory``.
    case outOfMemory
    /// The statement failed while running; the engine's message.
    case failed(String)
}

/// One value of a query's result on either engine, typed so each output format can write it
/// as it reads: numbers as numbers, exact digits kept, bytes as bytes, NULL as null.
public enum QueryValue: Sendable, Equatable {
    /// SQL `NULL`.
    case null
    /// An integer (SQLite's INTEGER; PostgreSQL's `smallint`, `integer`, `bigint`, `oid`).
    case integer(Int64)
    /// A float (SQLite's REAL; PostgreSQL's `real`, `double precision`).
    case real(Double)
    /// Exact decimal digits (PostgreSQL's `numeric`), or `NaN`/`Infinity`/`-Infinity`.
    case number(String)
    /// PostgreSQL's `boolean`.
    case boolean(Bool)
    /// Text (every type without a kind of its own here: uuid, timestamps, json…).
    case text(String)
    /// Bytes (SQLite's BLOB, PostgreSQL's `bytea`).
    case bytes([UInt8])
}
