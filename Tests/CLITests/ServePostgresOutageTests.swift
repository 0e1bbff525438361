import Foundation
import StockroomTestSupport
import Testing

/// `stockroom serve` on PostgreSQL through an outage of the server: requests during it get
/// `503` with `Retry-After`, then the pool connects again and service resumes, event streams
/// included (they are woken by the new LISTEN connection).
@Suite struct ServePostgresOutageTests {
    @Test func anOutageGets503WithRetryAfterThenServiceResumes() throws {
        let database = try PostgresServer(label: "outage")
        let uri = database.socketURI()
        let added = try Processes.stockroom(["items", "add", "--name", "Before"], environment: ["STOCKROOM_DB": uri])
        try #require(added.status == 0, "\(added)")
        let serve = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", uri, "--port", "0"], deadlineSeconds: 120)
        let url = try #require(serve.readLine())
        let port = Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
        #expect(try RawHTTP.request(port: port, "GET", "/api/items").status == 200)
        #expect(try RawHTTP.events(port: port, count: 1).map(\.id) == ["1"])

        try database.stopForOutage()
        let during = try RawHTTP.request(port: port, "GET", "/api/items")
        #expect(during.status == 503 && during.headers["retry-after"] != nil, "\(during)")

        try database.startAgain()
        // Each pool thread connects again at its next job once its pause is over; until then
        // a request is answered 503 at once. Ask until all is well, within a deadline.
        let deadline = ContinuousClock.now + .seconds(30)
        var statuses: Set<Int> = []
        var status = 0
        while status != 200, ContinuousClock.now < deadline {
            let answer = try RawHTTP.request(port: port, "GET", "/api/items")
            status = answer.status
            if status != 200 { #expect(status == 503 && answer.headers["retry-after"] != nil, "\(answer)") }
            statuses.insert(status)
        }
        #expect(status == 200, "\(statuses)")
        // Every thread of the pool serves again, and a new event reaches a stream.
        for _ in 0..<8 { #expect(try RawHTTP.request(port: port, "GET", "/api/items").status == 200) }
        let events = try RawHTTP.events(port: port, headers: ["Last-Event-ID": "1"], count: 1) {
            let later = try Processes.stockroom(["items", "add", "--name", "After"], environment: ["STOCKROOM_DB": uri])
            #expect(later.status == 0, "\(later)")
        }
        #expect(events.map(\.id) == ["2"])
        kill(serve.processIdentifier, SIGTERM)
        #expect(serve.wait().status == 0)
    }
}
