import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom events --follow` on a real PostgreSQL server: woken by the history triggers'
/// NOTIFY, whoever writes (another `stockroom`, `psql`), and surviving a server restart.
@Suite struct PostgresEventsTests {
    func follower(_ uri: String) throws -> BackgroundProcess {
        try BackgroundProcess(Processes.stockroomPath, ["events", "--follow"], environment: ["STOCKROOM_DB": uri], deadlineSeconds: 90)
    }

    func object(_ line: String?) throws -> [String: Any] {
        let line = try #require(line, "the follower's output ended")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @discardableResult
    func add(_ name: String, to uri: String) throws -> String {
        let added = try Processes.stockroom(["items", "add", "--name", name], environment: ["STOCKROOM_DB": uri])
        try #require(added.status == 0, "\(added)")
        return added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func psqlAndOtherProcessesWakeTheFollower() throws {
        let schema = try PostgresScratchSchema()
        try add("Before", to: schema.uri)
        let follower = try follower(schema.uri)
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        let id = try add("From stockroom", to: schema.uri)
        #expect(try object(follower.readLine())["itemId"] as? String == id)
        let inserted = try schema.psql("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('00000000-0000-7000-8000-000000000002', 'From psql', NULL, 'in_stock', 4, NULL,
                    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
            """)
        #expect(inserted.status == 0, "\(inserted)")
        let event = try object(follower.readLine())
        #expect(event["itemId"] as? String == "00000000-0000-7000-8000-000000000002" && event["position"] as? Int == 3)
        let updated = try schema.psql("UPDATE items SET quantity = 5 WHERE id = '00000000-0000-7000-8000-000000000002';")
        #expect(updated.status == 0, "\(updated)")
        #expect(try object(follower.readLine())["kind"] as? String == "changed")
        kill(follower.processIdentifier, SIGTERM)
        let result = follower.wait()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test func aServerRestartIsSurvivedAndNothingIsLost() throws {
        let server = try PostgresServer(label: "events")
        let uri = server.socketURI()
        try add("Before", to: uri)
        let follower = try follower(uri)
        #expect(try object(follower.readLine())["position"] as? Int == 1)
        try server.restart()
        // Written before the follower can have reconnected: read once it has.
        let during = try add("Right after the restart", to: uri)
        #expect(try object(follower.readLine())["itemId"] as? String == during)
        let after = try add("Later", to: uri)
        let event = try object(follower.readLine())
        #expect(event["itemId"] as? String == after && event["position"] as? Int == 3)
        kill(follower.processIdentifier, SIGTERM)
        let result = follower.wait()
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }
}
