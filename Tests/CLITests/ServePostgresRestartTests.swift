import Foundation
import PostgresCore
import StockroomTestSupport
import Synchronization
import Testing

/// Issue 37, "a live page that goes quiet after a PostgreSQL restart", with the real binary and
/// a real server restarted under it: how soon `stockroom serve` answers once PostgreSQL accepts
/// connections again, and what an event stream open across the restart does.
///
/// The bounds are the requirements (answered under 2 s after the server is back; no
/// write 3 s old left undelivered on an open stream), far above what the bounded back-offs
/// give (docs/web.md, "When PostgreSQL restarts or stops"); the figures are printed.
/// Serialized: the servers' restarts would otherwise share the CPU the timings depend on.
@Suite(.serialized) struct ServePostgresRestartTests {
    /// The requirement: the first answer to `GET /api/items` that is not a 503, this
    /// soon after PostgreSQL accepts connections again.
    static let answerBound: Duration = .seconds(2)
    /// The requirement: a write this old is on the open stream, or the stream ended.
    static let deliveryBound: Duration = .seconds(3)

    @Test func theServerAnswersWithinTwoSecondsOfPostgreSQLAcceptingConnectionsAgain() throws {
        let database = try PostgresServer(label: "restart")
        defer { database.stop() }
        let uri = database.socketURI()
        let added = try Processes.stockroom(["items", "add", "--name", "Before"], environment: ["STOCKROOM_DB": uri])
        try #require(added.status == 0, "\(added)")
        let (serve, port) = try Self.serve(uri)
        #expect(try RawHTTP.request(port: port, "GET", "/api/items").status == 200)

        var figures: [String] = []
        for round in 1...5 {
            let answered = try Self.timeToAnswer(uri: uri, port: port) { try database.restart() }
            figures.append("restart \(round): \(Self.milliseconds(answered)) ms")
            #expect(answered < Self.answerBound, "restart \(round): answered \(answered) after PostgreSQL was back")
        }
        let answered = try Self.timeToAnswer(uri: uri, port: port) {
            try database.stopForOutage()
            // The outage's length is what is tested: the pool's pauses grow while it lasts.
            Thread.sleep(forTimeInterval: 8)
            try database.startAgain()
        }
        figures.append("8 s outage: \(Self.milliseconds(answered)) ms")
        #expect(answered < Self.answerBound, "8 s outage: answered \(answered) after PostgreSQL was back")
        print("time from PostgreSQL accepting connections to the first answer that is not 503: "
              + figures.joined(separator: ", "))
        kill(serve.processIdentifier, SIGTERM)
        #expect(serve.wait().status == 0)
    }

    /// A restart while nobody asks: every connection of the pool is to a session that is gone,
    /// and the first request to each must find that out before it runs, not by failing (a
    /// client asking once a second met one `503` per connection of the pool, issue 37).
    @Test func noRequestAfterAQuietRestartIsAnswered503() throws {
        let database = try PostgresServer(label: "quiet")
        defer { database.stop() }
        let uri = database.socketURI()
        try Self.add("Before", to: uri)
        let (serve, port) = try Self.serve(uri)
        // More requests than the pool has connections, so that every one is used.
        for _ in 0..<8 { #expect(try RawHTTP.request(port: port, "GET", "/api/items").status == 200) }
        for round in 1...2 {
            try database.restart()
            let statuses = try (0..<8).map { _ in try RawHTTP.request(port: port, "GET", "/api/items").status }
            #expect(statuses == Array(repeating: 200, count: 8), "round \(round)")
        }
        kill(serve.processIdentifier, SIGTERM)
        #expect(serve.wait().status == 0)
    }

    @Test func aStreamOpenAcrossARestartDeliversTwoWritesOrEnds() throws {
        let database = try PostgresServer(label: "stream")
        defer { database.stop() }
        let uri = database.socketURI()
        try Self.add("Before", to: uri)
        let (serve, port) = try Self.serve(uri)
        // `events --follow` shares the LISTEN connection's back-off with the server's streams.
        let follower = try BackgroundProcess(Processes.stockroomPath, ["events", "--follow"], environment: ["STOCKROOM_DB": uri],
                                             deadlineSeconds: 300)
        #expect(Self.position(follower.readLine()) == 1)
        var last = 1
        var figures: [String] = []
        /// The follower's next two events: their positions, and how long after `written` they came.
        func followed(after written: ContinuousClock.Instant) -> (positions: [Int?], late: Duration) {
            let positions = [Self.position(follower.readLine()), Self.position(follower.readLine())]
            return (positions, .now - written)
        }
        for round in 1...3 {
            let stream = try RawHTTP.EventStream(port: port, headers: ["Last-Event-ID": String(last)])
            #expect(stream.readHead(before: .now + .seconds(30)) && stream.status == 200, "\(stream.text)")
            try database.restart()
            // Right after the server is back, by another process: before the server's pool and
            // its LISTEN connection can have reconnected.
            try Self.add("Round \(round), first", to: uri)
            try Self.add("Round \(round), second", to: uri)
            let written = ContinuousClock.now
            let wanted = [String(last + 1), String(last + 2)]
            let delivered = stream.read(count: 2, before: written + Self.deliveryBound).map(\.id)
            if delivered == wanted {
                figures.append("round \(round): both on the open stream \(Self.milliseconds(.now - written)) ms after the second write")
            } else {
                #expect(stream.ended, "round \(round): open and silent \(Self.deliveryBound) after the writes: \(stream.text)")
                // What EventSource does next: reconnect with the last id it received.
                let resumed = try RawHTTP.EventStream(port: port, headers: ["Last-Event-ID": delivered.last ?? String(last)])
                #expect(resumed.readHead(before: .now + .seconds(30)) && resumed.status == 200, "\(resumed.text)")
                let rest = resumed.read(count: wanted.count - delivered.count, before: .now + Self.deliveryBound).map(\.id)
                #expect(delivered + rest == wanted, "round \(round): \(stream.text) then \(resumed.text)")
                figures.append("round \(round): the stream ended; reconnected, it had \(delivered + rest) of \(wanted) "
                               + "\(Self.milliseconds(.now - written)) ms after the second write")
            }
            let (positions, late) = followed(after: written)
            #expect(positions == [last + 1, last + 2] && late < Self.deliveryBound, "round \(round): events --follow: \(positions) \(late)")
            figures.append("events --follow had both by \(Self.milliseconds(late)) ms")
            last += 2
        }
        // Opened while the server is away (a page loaded then, or EventSource reconnecting
        // then): a stream that ended now would send EventSource back into a 503, which ends
        // EventSource for good. It stays open, then delivers what is written once the server is
        // back. Two seconds: longer than EventSource waits to reconnect (`retry: 1000`).
        try database.stopForOutage()
        let opened = try RawHTTP.EventStream(port: port, headers: ["Last-Event-ID": String(last)])
        #expect(opened.readHead(before: .now + .seconds(30)) && opened.status == 200, "\(opened.text)")
        #expect(opened.read(count: 1, before: .now + .seconds(2)).isEmpty && !opened.ended,
                "a stream opened during the outage ended: \(opened.text)")
        try database.startAgain()
        try Self.add("After the outage, first", to: uri)
        try Self.add("After the outage, second", to: uri)
        let written = ContinuousClock.now
        let delivered = opened.read(count: 2, before: written + Self.deliveryBound).map(\.id)
        #expect(delivered == [String(last + 1), String(last + 2)], "\(opened.text)")
        figures.append("opened during an outage: both \(Self.milliseconds(.now - written)) ms after the second write")
        let (positions, late) = followed(after: written)
        #expect(positions == [last + 1, last + 2] && late < Self.deliveryBound, "after the outage: events --follow: \(positions) \(late)")
        figures.append("events --follow had both by \(Self.milliseconds(late)) ms")
        kill(follower.processIdentifier, SIGTERM)
        #expect(follower.wait().status == 0)
        print("an event stream open across a PostgreSQL restart: " + figures.joined(separator: "; "))
        kill(serve.processIdentifier, SIGTERM)
        #expect(serve.wait().status == 0)
    }

    // MARK: Helpers

    /// `stockroom serve` on `uri` and the port it printed.
    static func serve(_ uri: String) throws -> (BackgroundProcess, Int) {
        let serve = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", uri, "--port", "0"], deadlineSeconds: 300)
        let url = try #require(serve.readLine())
        return (serve, Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0)
    }

    static func add(_ name: String, to uri: String) throws {
        let added = try Processes.stockroom(["items", "add", "--name", name], environment: ["STOCKROOM_DB": uri])
        try #require(added.status == 0, "\(added)")
    }

    /// The `position` of an event line of `events --follow`; nil when there is none.
    static func position(_ line: String?) -> Int? {
        guard let line, let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["position"] as? Int
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// When the server at `uri` started (`pg_postmaster_start_time()`); nil while it does not
    /// accept connections. A new value tells the restarted server from the one before.
    static func startTime(_ uri: String) -> String? {
        guard let connection = try? Connection(uri) else { return nil }
        return try? connection.query("SELECT pg_postmaster_start_time()::text").scalar(String.self)
    }

    /// Runs `outage` (which returns once PostgreSQL runs again) on a thread of its own while
    /// `GET /api/items` is asked again and again, and returns how long after PostgreSQL
    /// accepted connections again the first answer other than 503 came.
    static func timeToAnswer(uri: String, port: Int, outage: @escaping @Sendable () throws -> Void) throws -> Duration {
        let before = try #require(startTime(uri))
        let poller = ItemsPoller(port: port)
        defer { poller.stop() }
        let outageDone = DispatchSemaphore(value: 0)
        let outageError = Mutex<(any Error)?>(nil)
        Thread.detachNewThread {
            do { try outage() } catch { outageError.withLock { $0 = error } }
            outageDone.signal()
        }
        // Back: the first connection that reaches the new server. The attempt's start is taken,
        // so the time measured includes the connection's own.
        var back: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + .seconds(120)
        while back == nil, ContinuousClock.now < deadline {
            let attempt = ContinuousClock.now
            // Polling is the measurement: "back" is the first connection that sees the new
            // server, so the pause between attempts is the figure's resolution, not a wait for a race.
            if let started = startTime(uri), started != before { back = attempt } else { usleep(5_000) }
        }
        outageDone.wait()
        if let error = outageError.withLock({ $0 }) { throw error }
        let since = try #require(back, "PostgreSQL did not come back")
        let answer = try #require(poller.firstAnswer(after: since, waitingUntil: since + .seconds(60)),
                                  "no answer but 503 within 60 s")
        #expect(answer.status == 200)
        return answer.at - since
    }
}

/// Asks `GET /api/items` again and again (every 20 ms, as an impatient client) on a thread of
/// its own, noting when each answer arrived and its status.
final class ItemsPoller: Sendable {
    private struct State {
        var answers: [(at: ContinuousClock.Instant, status: Int)] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let answered = NSCondition()
    private let ended = DispatchSemaphore(value: 0)

    init(port: Int) {
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                let status = (try? RawHTTP.request(port: port, "GET", "/api/items").status) ?? 0
                answered.withLock {
                    state.withLock { $0.answers.append((.now, status)) }
                    answered.broadcast()
                }
                // A client asking every 20 ms: the resolution of the time to the first answer.
                // Every answer is recorded and waited on through `answered`, never timed by a sleep.
                usleep(20_000)
            }
            ended.signal()
        }
    }

    /// The first answer other than 503 that arrived after `instant`, waiting for one until
    /// `deadline`; nil if none came by then.
    func firstAnswer(after instant: ContinuousClock.Instant,
                     waitingUntil deadline: ContinuousClock.Instant) -> (at: ContinuousClock.Instant, status: Int)? {
        answered.withLock {
            while true {
                let found = state.withLock { $0.answers.first { $0.at > instant && $0.status != 503 } }
                if let found { return found }
                let left = deadline - .now
                guard left > .zero else { return nil }
                _ = answered.wait(until: Date() + Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            }
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        ended.wait()
    }
}
