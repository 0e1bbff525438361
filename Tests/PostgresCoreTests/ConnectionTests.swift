import Foundation
import PostgresCore
import StockroomTestSupport
import Testing

/// Connecting, parameters and results, on a real server the tests started.
@Suite struct ConnectionTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    @Test func connectsOverTheUnixSocketOfTheTestServer() throws {
        let connection = try schema.connect()
        #expect(connection.serverVersion >= 150000)
        #expect(connection.host == schema.server.socketDirectory)
        #expect(try connection.query("SELECT current_schema()").scalar(String.self) == schema.name)
        #expect(connection.transactionState == .idle)
    }

    /// A scheme is case-insensitive (`--db` takes `POSTGRESQL://` for a server), while libpq
    /// compares it byte for byte: the connection must reach the server, not fail to parse.
    @Test(arguments: ["POSTGRESQL://", "Postgres://"])
    func aURIWithTheSchemeInCapitalsConnects(_ scheme: String) throws {
        let uri = schema.uri
        let rest = uri.drop { $0 != ":" }
        #expect(uri.hasPrefix("postgresql:") && rest.hasPrefix("://"), "\(uri)")
        #expect(ConnectionString.isPostgresURI(scheme + rest.dropFirst(3)))
        let connection = try Connection(scheme + rest.dropFirst(3))
        #expect(try connection.query("SELECT current_schema()").scalar(String.self) == schema.name)
    }

    @Test func parametersRoundTripEveryTypeAsText() throws {
        let connection = try schema.connect()
        let id = UUID()
        let text = "it's \"quoted\"\ttabbed\nline, ünïcödé ✓, back\\slash; DROP TABLE x; --"
        let row = try connection.query(
            "SELECT $1::bigint, $2::bigint, $3::text, $4::boolean, $5::boolean, $6::float8, $7::uuid, $8::text, $9::integer",
            Int.max, Int64.min, text, true, false, 0.1, id, String?.none, Int?.some(42))[0]
        #expect(try row.get(Int.self, at: 0) == Int.max)
        #expect(try row.get(Int64.self, at: 1) == Int64.min)
        #expect(try row.get(String.self, at: 2) == text)
        #expect(try row.get(Bool.self, at: 3) == true)
        #expect(try row.get(Bool.self, at: 4) == false)
        #expect(try row.get(Double.self, at: 5) == 0.1)
        #expect(try row.get(UUID.self, at: 6) == id)
        #expect(try row.get(String?.self, at: 7) == nil)
        #expect(row.isNull(at: 7))
        #expect(try row.get(Int?.self, at: 8) == 42)
    }

    @Test func columnsReadInPlaceAsBytesAndIntegers() throws {
        let connection = try schema.connect()
        let row = try connection.query(
            "SELECT 'ünï'::text, NULL::text, '-9223372036854775808'::bigint, 9223372036854775807::bigint, '9223372036854775808', '', '-', '12a', 0")[0]
        #expect(row.withBytes(at: 0) { Array($0) } == Array("ünï".utf8))
        #expect(row.withBytes(at: 1) { Array($0) } == nil)
        #expect(row.integer(at: 2) == Int.min)
        #expect(row.integer(at: 3) == Int.max)
        #expect(row.integer(at: 4) == nil)  // one past Int.max
        #expect(row.integer(at: 5) == nil)
        #expect(row.integer(at: 6) == nil)
        #expect(row.integer(at: 7) == nil)
        #expect(row.integer(at: 8) == 0)
        #expect(row.integer(at: 1) == nil)
    }

    /// Up to 18 digits are parsed without overflow checks, 19 and more with them: both sides
    /// of that line, signed, and text that is not a plain decimal, as the server sends it.
    @Test func integersEitherSideOfTheUncheckedDigitCount() throws {
        let connection = try schema.connect()
        let texts = ["999999999999999999", "-999999999999999999", "1000000000000000000", "-1000000000000000000",
                     "000000000000000000042", "7", "-0", "+1", " 1", "1 ", "1-2", "12345678901234567x", "99999999999999999999"]
        // Literals (none holds a quote), in order: an array's text form would trim the spaces.
        let literals = texts.map { "('\($0)')" }.joined(separator: ", ")
        let result = try connection.query("SELECT t FROM (VALUES \(literals)) AS v(t)")
        let cells = result.cells
        let read = withExtendedLifetime(result) { (0..<cells.rowCount).map { cells.integer(row: $0, column: 0) } }
        #expect(read == [999_999_999_999_999_999, -999_999_999_999_999_999, 1_000_000_000_000_000_000, -1_000_000_000_000_000_000,
                         42, 7, 0, nil, nil, nil, nil, nil, nil])
    }

    @Test func nullsTravelBothWaysAndAreRefusedByNonOptionalReads() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (id integer PRIMARY KEY, color text NULL)")
        try connection.run("INSERT INTO t VALUES ($1, $2), ($3, $4)", 1, String?.none, 2, String?.some("blue"))
        let rows = try connection.query("SELECT id, color FROM t ORDER BY id")
        #expect(rows.count == 2)
        #expect(try rows.map { try $0.get(String?.self, named: "color") } == [nil, "blue"])
        #expect(try connection.query("SELECT count(*) FROM t WHERE color IS NULL").scalar(Int.self) == 1)
        let error = try #require(throws: PostgresError.self) { try rows[0].get(String.self, at: 1) }
        #expect(error.kind == .unexpectedValue)
        #expect(error.message.contains("color"))
    }

    @Test func preparedStatementsRunManyTimesAndSurviveAReconnect() throws {
        let connection = try schema.connect()
        try connection.execute("CREATE TABLE t (n integer NOT NULL)")
        let insert = try connection.preparedStatement("INSERT INTO t VALUES ($1)")
        for n in 1...10 { try insert.run(n) }
        #expect(try connection.preparedStatement("INSERT INTO t VALUES ($1)") === insert)
        try connection.reset()
        try insert.run(11)
        #expect(try connection.query("SELECT sum(n) FROM t").scalar(Int.self) == 66)
    }

    @Test func aParameterizedQueryTakesOneStatementOnly() throws {
        let connection = try schema.connect()
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELECT $1::int; SELECT 2", 1)
        }
        #expect(error.sqlState == "42601")
        #expect(error.sql == "SELECT $1::int; SELECT 2")
    }

    @Test func aTerminatedBackendIsClassifiedAsALostConnectionAndResetReconnects() throws {
        let connection = try schema.connect()
        let killer = try schema.connect()
        #expect(try killer.query("SELECT pg_terminate_backend($1)", connection.backendProcessID).scalar(Bool.self))
        let error = try #require(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error.kind == .connectionLost, "\(error)")
        #expect(!connection.isConnected)
        try connection.reset()
        #expect(try connection.query("SELECT 1").scalar(Int.self) == 1)
    }

    @Test func statementTimeoutGivesAClassifiedTimeoutAndTheConnectionStaysUsable() throws {
        let connection = try schema.connect()
        try connection.setStatementTimeout(.milliseconds(50))
        #expect(try connection.setting("statement_timeout") == "50ms")
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELECT count(*) FROM generate_series(1, 10000000000)")
        }
        #expect(error.kind == .timedOut)
        #expect(error.sqlState == "57014")
        #expect(error.message.contains("statement timeout"))
        try connection.setStatementTimeout(nil)
        #expect(try connection.query("SELECT 1").scalar(Int.self) == 1)
    }
}

/// A statement can be cancelled from another thread.
@Suite struct CancelTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    @Test func anotherThreadCancelsARunningStatement() throws {
        let connection = try schema.connect()
        let canceller = try connection.canceller()
        let backend = connection.backendProcessID
        // A backstop so that a failed cancel fails the test instead of hanging it.
        try connection.setStatementTimeout(.seconds(120))
        let uri = schema.uri
        let sent = Locked<Bool?>(nil)
        let finished = Locked(false)
        let cancellerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { cancellerDone.signal() }
            guard let observer = try? Connection(uri) else { return sent.withValue { $0 = false } }
            // Cancel while the server reports the statement running, again and again until it
            // stops: a cancel that lands between the protocol messages of the statement, before
            // it executes, is ignored by the server.
            while !finished.current {
                let running = (try? observer.query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active'",
                                                   backend).scalar(Int.self)) == 1
                if running { let outcome = canceller.cancel(); sent.withValue { $0 = ($0 ?? true) && outcome.sent } }
            }
        }
        defer { finished.withValue { $0 = true } } // also when an expectation below throws
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELECT count(*) FROM generate_series(1, 100000000000)")
        }
        finished.withValue { $0 = true }
        cancellerDone.wait() // no cancel request can reach the next statement
        #expect(error.kind == .timedOut)
        #expect(error.sqlState == "57014")
        #expect(error.message.contains("user request"), "\(error.message)")
        #expect(sent.current == true)
        #expect(try connection.query("SELECT 1").scalar(Int.self) == 1)
    }
}
