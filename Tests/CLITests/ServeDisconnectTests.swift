import Foundation
import StockroomTestSupport
import Testing

/// Clients that go away part-way through a response, or part-way through their request, cost
/// only their own request: the real `stockroom serve`, real sockets and curl.
@Suite("serve: clients that hang up") struct ServeDisconnectTests {
    /// Requests other clients make while exports are being abandoned, and what they got.
    final class Bystander: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private var answered = 0
        private var failures: [String] = []
        private let done = DispatchSemaphore(value: 0)

        /// Starts asking `port` for a page and an API list, one after the other, until ``stop()``.
        init(port: Int) {
            Thread.detachNewThread { [self] in
                var round = 0
                while !lock.withLock({ stopped }) {
                    let path = round % 2 == 0 ? "/api/items?limit=5" : "/?search=Bulk"
                    round += 1
                    do {
                        let response = try RawHTTP.request(port: port, "GET", path)
                        lock.withLock {
                            if response.status == 200 { answered += 1 } else { failures.append("\(path): \(response.status)") }
                        }
                    } catch {
                        lock.withLock { failures.append("\(path): \(error)") }
                    }
                }
                done.signal()
            }
        }

        /// Stops asking; returns how many answers were 200 and what else happened.
        func stop() -> (answered: Int, failures: [String]) {
            lock.withLock { stopped = true }
            done.wait()
            return lock.withLock { (answered, failures) }
        }
    }

    /// Items in the export that clients abandon: 100k make about 12 MB of CSV and 20 MB of
    /// JSON Lines, which the server writes in 256 KiB chunks, so cuts land before the head,
    /// in the first chunks, and deep into the stream. (The SIGILL this guards against came
    /// with any export past the pipe reader's window of four chunks; 1M items, which take
    /// minutes to write here, were checked by hand.)
    static let exportedItems = 100_000

    @Test("exports cut off at random points, by close and by reset, many times: the server answers others throughout and stays up")
    func exportsCutOff() throws {
        // Filled before the server starts, so its deadline counts the test, not the filling.
        let database = CLIDatabase()
        #expect(try database.stockroom("migrate", "up").status == 0)
        try database.addBulkItems(ServeDisconnectTests.exportedItems)
        let server = try ServeCommandTests.Server(database: database, deadlineSeconds: 600)
        let bystander = Bystander(port: server.port)
        var generator = SystemRandomNumberGenerator()
        var cuts: [String] = []
        let formats = ["csv", "jsonl", "json"]
        // Cutting stops at the first connection refused: the server is gone, and its exit
        // status, checked below, says how.
        var refused: (any Error)?
        do {
            for round in 0..<48 {
                let format = formats[round % formats.count]
                let hangUp = RawHTTP.HangUp.allCases[round / formats.count % 2]
                // From before the head to past the end of the body.
                let limit = round % 8 == 0 ? 0 : Int.random(in: 1...(16 << 20), using: &generator)
                let read = try RawHTTP.abandon(port: server.port, "/api/export?format=\(format)", afterReading: limit, hangUp: hangUp)
                cuts.append("\(format) \(hangUp) after \(read)")
            }
        } catch {
            refused = error
        }
        // curl as the issue ran it: a client that gives up after 0.3 s.
        for _ in 0..<(refused == nil ? 5 : 0) {
            let curl = try Processes.run("/usr/bin/curl", ["--silent", "--max-time", "0.3", "--output", "/dev/null",
                                                           "http://127.0.0.1:\(server.port)/api/export?format=csv"])
            #expect(curl.status == 28, "curl should time out part-way: \(curl)")
        }
        let others = bystander.stop()
        #expect(others.failures.isEmpty, "\(others.failures.prefix(5)) after cuts \(cuts)")
        #expect(others.answered > 0)
        // Still whole: an export read to its end is the CLI's, byte for byte.
        let directory = TemporaryDirectory()
        let served = try Processes.run("/usr/bin/curl", ["--silent", "--show-error", "--fail", "--output", directory.path("served.csv"),
                                                         "http://127.0.0.1:\(server.port)/api/export?format=csv"])
        #expect(served.status == 0, "\(served)")
        let exported = try server.database.stockroom("export", "--format", "csv", "--output", directory.path("cli.csv"))
        #expect(exported.status == 0, "\(exported)")
        #expect(FileManager.default.contentsEqual(atPath: directory.path("served.csv"), andPath: directory.path("cli.csv")))
        let stopped = server.stop()
        #expect(refused == nil, "\(refused.map { "\($0)" } ?? "") after cuts \(cuts)")
        #expect(stopped.status == 0, "the server died (132 is SIGILL) after cuts \(cuts): \(stopped.stderr.suffix(1500))")
    }

    @Test("an event stream and pages abandoned at once cost nothing: the server stays up")
    func streamsAndPagesCutOff() throws {
        let server = try ServeCommandTests.Server()
        _ = try server.database.stockroom("items", "add", "--name", "Hub")
        for round in 0..<20 {
            let hangUp = RawHTTP.HangUp.allCases[round % 2]
            try RawHTTP.abandon(port: server.port, "/api/events", afterReading: round % 4 < 2 ? 0 : 20, hangUp: hangUp)
            try RawHTTP.abandon(port: server.port, "/", afterReading: round % 4 < 2 ? 0 : 100, hangUp: hangUp)
        }
        // A change after the abandoned streams still reaches a live one.
        let events = try RawHTTP.events(port: server.port, count: 2) {
            _ = try server.database.stockroom("items", "add", "--name", "Cable")
        }
        #expect(events.map(\.event) == ["added", "added"])
        #expect(try RawHTTP.request(port: server.port, "GET", "/api/items").status == 200)
        #expect(server.stop().status == 0)
    }

    @Test("a body cut short (Content-Length 50, 4 bytes sent, then the client closes) is 400 or the connection's end, never a 5xx; nothing changes")
    func bodyCutShort() throws {
        let server = try ServeCommandTests.Server()
        let id = try server.database.stockroom("items", "add", "--name", "Hub").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let requests = [
            ("POST", "/api/items", "application/json"), ("POST", "/api/import", "application/jsonl"),
            ("PATCH", "/api/items/\(id)", "application/merge-patch+json"), ("POST", "/api/drafts", "application/json"),
            ("POST", "/items", "application/x-www-form-urlencoded"), ("POST", "/import", "multipart/form-data; boundary=x"),
        ]
        for (method, path, type) in requests {
            let request = Array("""
                \(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: \(type)\r\nIf-Match: "1"\r\n\
                Content-Length: 50\r\n\r\n{"na
                """.utf8)
            // Half-closed: the client still reads, so the answer can reach it.
            let answer = RawHTTP.parse(try RawHTTP.exchange(port: server.port, request))
            #expect(answer.status == 400 || answer.status == 0, "\(method) \(path): \(answer)")
            if answer.status == 400 { #expect(answer.body.contains("ended before its Content-Length"), "\(answer.body)") }
            // Closed outright, and reset.
            for hangUp in RawHTTP.HangUp.allCases {
                try RawHTTP.abandon(port: server.port, sending: request, afterReading: 0, hangUp: hangUp)
            }
        }
        #expect(try RawHTTP.request(port: server.port, "GET", "/api/items").status == 200)
        let stopped = server.stop()
        #expect(stopped.status == 0)
        let cut = stopped.stderr.split(separator: "\n").filter { !$0.hasPrefix("GET ") }
        #expect(!cut.isEmpty && cut.allSatisfy { $0.contains(" 400 ") }, "\(stopped.stderr)")
        #expect(try server.database.sqlite3("SELECT count(*) FROM items; SELECT count(*) FROM drafts; SELECT max(version) FROM item_events;")
            .split(separator: "\n") == ["1", "0", "1"])
    }
}
