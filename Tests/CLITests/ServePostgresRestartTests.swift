import Foundation
import PostgresCore
import StockroomTestSupport
import Synchronization
import Testing

/// Issue 37, "a live page that goes quiet after a PostgreSQL restart", with the real binary and
/// a real server restarted under it: how soon `stockroom serve` answers once PostgreSQL accepts
/// connections again.
///
/// The bound is the requirement (answered under 2 s after the server is back), far
/// above what the pool's bounded back-off gives (docs/web.md, "When PostgreSQL restarts or
/// stops"); the figures are printed. Serialized: the servers' restarts would otherwise share
/// the CPU the timings depend on.
@Suite(.serialized) struct ServePostgresRestartTests {
    /// The requirement: the first answer to `GET /api/items` that is not a 503, this
    /// soon after PostgreSQL accepts connections again.
    static let answerBound: Duration = .seconds(2)

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
