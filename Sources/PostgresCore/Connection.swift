import LibPQ
import FoundationEssentials
import Glibc
import TextFormats

/// One connection to a PostgreSQL server, through libpq.
///
/// The connection string goes to libpq unchanged, so everything libpq understands works:
/// URIs and keyword/value strings, several hosts (`postgresql://h1,h2/db`) tried in order with
/// `target_session_attrs=read-write` picking the primary, `sslmode`, `connect_timeout`,
/// `PGPASSFILE`/`~/.pgpass`, `PGPASSWORD`, `PGSERVICE` and service files, and every other
/// `PG*` environment variable.
///
/// A `Connection` is synchronous and used from one thread at a time (it is not `Sendable`).
/// Statements take their values as parameters (`$1`, `$2`, ...) in text format and return rows
/// in text format, read through ``Row/get(_:at:)``.
///
/// Server notices (`NOTICE: ... skipping`) are dropped instead of going to stderr, which
/// belongs to the program using the connection.
public final class Connection {
    /// How long connecting waits for a server that accepted the connection but does not
    /// answer, per host tried, when neither the connection string nor `PGCONNECT_TIMEOUT`
    /// sets `connect_timeout` (libpq alone would wait forever).
    public static let defaultConnectTimeoutSeconds = 10

    /// The connection string with its password masked: safe to print.
    public let redactedConnectionString: String
    /// The passwords the connection string holds, to scrub from libpq's messages.
    private let passwords: [String]
    private(set) var handle: OpaquePointer
    /// The connection string as given, password included, for ``reset()``; never printed.
    private let connectionString: String
    /// libpq's functions, loaded by the first connection of the process.
    let pq: LibPQTable
    /// Incremented by ``reset()``: statements prepared in an earlier session are gone.
    private(set) var session = 0
    private var preparedStatements: [String: PreparedStatement] = [:]
    private var preparedCount = 0
    /// Session settings made with ``setSetting(_:to:local:)``, made again by ``reset()``: a
    /// new session starts from the server's defaults, and a `lock_timeout` or
    /// `statement_timeout` the caller chose must not silently vanish with the old one.
    var sessionSettings: [(name: String, value: String)] = []

    /// Connects to the server `connectionString` names.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/libraryUnavailable`` when libpq
    ///   is not installed (see ``PostgresClientLibrary``), ``PostgresError/Kind/invalidConnectionString`` when
    ///   libpq cannot parse the string or a value in it is not one libpq takes (a port that is not a
    ///   number, an unknown `sslmode`), or ``PostgresError/Kind/connectionFailed`` with libpq's
    ///   message (every host it tried, and why each failed). Neither message holds the password.
    public init(_ connectionString: String) throws {
        let pq = try PostgresClientLibrary.functions()
        self.pq = pq
        // Messages show the string as the user wrote it; libpq gets its lower-case scheme.
        redactedConnectionString = ConnectionString.redacted(connectionString)
        let connectionString = ConnectionString.normalizedForLibPQ(connectionString)
        self.connectionString = connectionString
        passwords = ConnectionString.passwords(in: connectionString)
        let passwords = passwords
        func clean(_ message: String) -> String { Connection.clean(message, passwords: passwords) }
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = pq.PQconninfoParse(connectionString, &parseError) {
            var settings: [(keyword: String, value: String)] = []
            var option = options
            while let keyword = option.pointee.keyword {
                if let value = option.pointee.val { settings.append((String(cString: keyword), String(cString: value))) }
                option += 1
            }
            pq.PQconninfoFree(options)
            if let problem = ConnectionOptionValues.problem(in: settings) {
                throw PostgresError(kind: .invalidConnectionString,
                                    message: "invalid connection string \(redactedConnectionString): \(clean(problem))")
            }
        } else {
            let message = parseError.map { String(cString: $0) } ?? "out of memory"
            pq.PQfreemem(parseError)
            throw PostgresError(kind: .invalidConnectionString,
                                message: "invalid connection string \(redactedConnectionString): \(clean(message))")
        }
        let connection: OpaquePointer
        do {
            // Our notice processor goes in before libpq reads a byte, and the wait for a
            // server that does not answer is bounded (see ConnectionStartup).
            guard let started = try ConnectionStartup.connect(connectionString, pq: pq) else {
                throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
            }
            connection = started
        } catch let failure as ConnectionStartup.Failure {
            throw PostgresError(kind: .connectionFailed,
                                message: "could not connect to \(redactedConnectionString): \(failure.describe(clean: clean))")
        }
        Connection.configure(connection, pq: pq)
        // Setting the client encoding is a round trip: a server that went away just after
        // accepting (killed, failing over) shows here, and says so better now than later.
        guard pq.PQstatus(connection) == CONNECTION_OK else {
            let message = clean(pq.errorMessage(connection))
            pq.PQfinish(connection)
            throw PostgresError(kind: .connectionFailed,
                                message: "could not connect to \(redactedConnectionString): \(message)")
        }
        handle = connection
    }

    /// libpq's message on one line (it lists each host tried on a line of its own), with every
    /// password replaced by `***` (libpq may quote the part of a URI it could not parse).
    static func clean(_ message: String, passwords: [String]) -> String {
        var text = message.trimmingTrailingNewlines()
        for password in passwords.sorted(by: { $0.count > $1.count }) where !password.isEmpty {
            text = text.replacingAll(password, with: ConnectionString.mask)
        }
        return text.split(separator: "\n").map { $0.trimmed { $0.isWhitespace && !$0.isNewline } }.joined(separator: "; ")
    }

    private static func configure(_ connection: OpaquePointer, pq: LibPQTable) {
        _ = pq.PQsetNoticeProcessor(connection, { _, _ in }, nil)
        _ = pq.PQsetClientEncoding(connection, "UTF8")
    }

    deinit {
        preparedStatements.removeAll()
        pq.PQfinish(handle)
    }

    /// The version of the libpq in use, e.g. 150018 for 15.18 (loads libpq: see
    /// ``PostgresClientLibrary``).
    public static var libraryVersion: Int { get throws { try PostgresClientLibrary.version() } }

    // MARK: State

    /// The server's version as a number, e.g. 150018 for 15.18.
    public var serverVersion: Int { Int(pq.PQserverVersion(handle)) }

    /// The host this connection reached: with several hosts in the connection string, the one
    /// that accepted (a name, an address, or a Unix-socket folder).
    public var host: String { pq.PQhost(handle).map { String(cString: $0) } ?? "" }

    /// The port this connection reached.
    public var port: String { pq.PQport(handle).map { String(cString: $0) } ?? "" }

    /// The process id of the server process serving this connection.
    public var backendProcessID: Int { Int(pq.PQbackendPID(handle)) }

    /// True while the connection is usable; false once it broke (see ``reset()``).
    ///
    /// libpq learns that the connection broke only when it reads from it: after the server
    /// restarted, this stays true until the next statement fails. ``pollConnection()`` reads
    /// first.
    public var isConnected: Bool { pq.PQstatus(handle) == CONNECTION_OK }

    /// Reads what the server sent since the last statement, without waiting, and returns
    /// ``isConnected``: false when the server closed the connection meanwhile.
    ///
    /// A server that stops or restarts tells each idle client (`FATAL: terminating connection
    /// due to administrator command`) and closes its end; only a read shows that. A long-lived
    /// connection checked this way before its next statement is reconnected (``reset()``)
    /// before that statement, rather than failing it on a session that is gone. No round trip:
    /// a `poll(2)` with no wait, and a read when something arrived. Call it between statements.
    public func pollConnection() -> Bool {
        // The goodbye and the end of the stream may take a read each; an idle connection that
        // keeps having input (notifications, which libpq keeps) is not read further here.
        for _ in 0..<3 where isConnected {
            var descriptor = pollfd(fd: pq.PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&descriptor, 1, 0) > 0, pq.PQconsumeInput(handle) == 1 else { break }
        }
        return isConnected
    }

    /// Where the connection stands with respect to transactions.
    public enum TransactionState: Sendable, Equatable {
        /// No transaction is open.
        case idle
        /// A transaction is open and usable.
        case inTransaction
        /// A transaction is open but a statement failed: only ROLLBACK will be accepted.
        case inFailedTransaction
        /// A command is running, or the connection is broken.
        case unknown
    }

    /// Where the connection stands with respect to transactions (PQtransactionStatus).
    public var transactionState: TransactionState {
        switch pq.PQtransactionStatus(handle) {
        case PQTRANS_IDLE: .idle
        case PQTRANS_INTRANS: .inTransaction
        case PQTRANS_INERROR: .inFailedTransaction
        default: .unknown
        }
    }

    /// Connects again with the same connection string, after the connection broke (or to move
    /// to another host of a multi-host string: libpq tries the hosts in order again).
    ///
    /// Prepared statements are prepared again on their next use; session settings made with
    /// ``setSetting(_:to:local:)`` are made again at once.
    public func reset() throws {
        session += 1
        preparedStatements.removeAll()
        // A new connection rather than PQreset, which blocks inside libpq: the same bounded,
        // host-by-host startup as the first connection (ConnectionStartup).
        let passwords = passwords
        do {
            guard let started = try ConnectionStartup.connect(connectionString, pq: pq) else {
                throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
            }
            pq.PQfinish(handle)
            handle = started
        } catch let failure as ConnectionStartup.Failure {
            let message = failure.describe { Connection.clean($0, passwords: passwords) }
            throw PostgresError(kind: .connectionFailed, message: "could not reconnect to \(redactedConnectionString): \(message)")
        }
        Connection.configure(handle, pq: pq)
        for setting in sessionSettings {
            try query("SELECT set_config($1, $2, false)", setting.name, setting.value)
        }
    }

    // MARK: Statements

    /// Runs `sql`, which may hold several statements separated by semicolons, without
    /// parameters (the simple query protocol). Use it for scripts and DDL.
    public func execute(_ sql: String) throws {
        _ = try check(pq.PQexec(handle, sql), sql: sql)
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, ... and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: any PostgresParameter...) throws -> QueryResult {
        try query(sql, parameters: parameters)
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, ... and returns its rows.
    @discardableResult
    public func query(_ sql: String, parameters: [any PostgresParameter]) throws -> QueryResult {
        let result = Connection.withParameterPointers(parameters) { count, values in
            pq.PQexecParams(handle, sql, count, nil, values, nil, nil, 0)
        }
        return try check(result, sql: sql)
    }

    /// Runs one statement with `parameters` and returns how many rows it inserted, updated or
    /// deleted.
    @discardableResult
    public func run(_ sql: String, _ parameters: any PostgresParameter...) throws -> Int {
        try query(sql, parameters: parameters).affectedRowCount
    }

    /// The server-side prepared statement for `sql`, prepared on first use and kept for the
    /// connection's life: SQL run many times is parsed and planned once.
    public func preparedStatement(_ sql: String) throws -> PreparedStatement {
        if let statement = preparedStatements[sql] { return statement }
        preparedCount += 1
        let statement = PreparedStatement(connection: self, sql: sql, name: "stockroom_\(preparedCount)")
        try statement.prepareIfNeeded()
        preparedStatements[sql] = statement
        return statement
    }

    /// Turns a libpq result into a ``QueryResult`` or a thrown ``PostgresError``.
    func check(_ result: OpaquePointer?, sql: String, accepting accepted: Set<UInt32> = []) throws -> QueryResult {
        guard let result else { throw PostgresError(result: nil, connection: self, sql: sql) }
        let status = pq.PQresultStatus(result)
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return QueryResult(handle: result, sql: sql, pq: pq)
        default:
            if accepted.contains(status.rawValue) { return QueryResult(handle: result, sql: sql, pq: pq) }
            let error = PostgresError(result: result, connection: self, sql: sql)
            pq.PQclear(result)
            // A statement that fails with an unexpected status (COPY where none was expected)
            // can leave libpq mid-protocol; drain it so the connection stays usable.
            while let extra = pq.PQgetResult(handle) { pq.PQclear(extra) }
            throw error
        }
    }

    /// Calls `body` with the parameters as C strings (NULL pointers for NULL), valid for the call.
    static func withParameterPointers<T>(_ parameters: [any PostgresParameter],
                                         _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { parameter in
            parameter.postgresText.map { strdup($0)! }
        }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { buffer in
            body(Int32(buffer.count), buffer.baseAddress)
        }
    }
}
