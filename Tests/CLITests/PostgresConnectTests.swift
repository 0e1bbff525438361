import Foundation
import PostgresCore
@testable import stockroom
import StockroomTestSupport
import Testing

/// Connecting to a server that misbehaves during the startup: every command ends with exit 75
/// and one `error:` line, and never waits forever.
@Suite struct PostgresConnectTests {
    /// A server that accepts the connection and never answers: the command gives up after the
    /// URI's `connect_timeout`.
    @Test func aServerThatNeverAnswersTimesOutAfterTheURIsConnectTimeout() throws {
        let listener = try FakePostgresListener()
        defer { listener.stop() }
        let uri = listener.uri(query: "connect_timeout=1&sslmode=disable")
        let result = try Processes.stockroom(["items", "list"], environment: ["STOCKROOM_DB": uri], timeoutSeconds: 60)
        expectFailure(result, code: .busy, mentioning: "did not answer within 1 s")
        #expect(result.stdout.isEmpty)
    }

    /// Without `connect_timeout` anywhere, the documented default applies (libpq alone would
    /// wait forever). `PGCONNECT_TIMEOUT`, libpq's own variable, is honoured too.
    @Test func withoutAConnectTimeoutTheDefaultApplies() throws {
        let listener = try FakePostgresListener()
        defer { listener.stop() }
        #expect(ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil, "the test needs libpq's variable unset")
        let result = try Processes.stockroom(["items", "list"], environment: ["STOCKROOM_DB": listener.uri()], timeoutSeconds: 120)
        expectFailure(result, code: .busy, mentioning: "did not answer within \(Connection.defaultConnectTimeoutSeconds) s")
        let fromVariable = try Processes.stockroom(["items", "list"], environment: ["STOCKROOM_DB": listener.uri(), "PGCONNECT_TIMEOUT": "1"],
                                                   timeoutSeconds: 60)
        expectFailure(fromVariable, code: .busy, mentioning: "did not answer within 1 s")
    }

    /// A server shutting down as the client connects: it completes the startup, then sends
    /// FATAL "terminating connection" and closes. libpq reads that FATAL while idle and hands
    /// it to the notice processor; with libpq's default one it went to stderr before our line.
    @Test func aServerThatSaysFatalDuringTheStartupGivesOneErrorLine() throws {
        let reply = FakePostgresListener.authenticationOK + FakePostgresListener.readyForQuery
            + FakePostgresListener.error(severity: "FATAL", sqlState: "57P01", "terminating connection due to administrator command")
        let listener = try FakePostgresListener(reply: reply)
        defer { listener.stop() }
        let result = try Processes.stockroom(["items", "list"], environment: ["STOCKROOM_DB": listener.uri(query: "connect_timeout=5")],
                                             timeoutSeconds: 60)
        expectFailure(result, code: .busy)
        #expect(!result.stderr.contains("FATAL:  terminating"), "\(result)")
    }

    /// A hung first host of a multi-host string is given up after `connect_timeout` for the
    /// next one, as libpq's blocking connect does: failover still works when the old primary
    /// hangs instead of refusing.
    @Test func aHungHostIsGivenUpForTheNextHost() throws {
        let listener = try FakePostgresListener()
        defer { listener.stop() }
        let database = try PostgresScratchDatabase()
        let uri = "postgresql:///\(database.name)?user=\(PostgresServer.superuser)&host=127.0.0.1,\(database.server.socketDirectory)"
            + "&port=\(listener.port),\(database.server.port)&connect_timeout=1"
        let added = try Processes.stockroom(["items", "add", "--name", "Mug"], environment: ["STOCKROOM_DB": uri], timeoutSeconds: 60)
        #expect(added.status == 0, "\(added)")
        #expect(try database.psql("SELECT name FROM items").output == "Mug")
    }
}
