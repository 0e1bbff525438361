import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom serve` as a process: the URL line, the Host check, the token, the access log,
/// malformed requests, signals, bad options, and writes racing the CLI on one file.
@Suite("serve command") struct ServeCommandTests {
    /// A running `stockroom serve --port 0` on a fresh file (or `database`, filled beforehand),
    /// and the port it printed; killed after `deadlineSeconds` if still running.
    final class Server: Sendable {
        let database: CLIDatabase
        let process: BackgroundProcess
        let url: String
        let port: Int

        init(_ arguments: [String] = [], database: CLIDatabase = CLIDatabase(), deadlineSeconds: Double = 120) throws {
            self.database = database
            process = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", database.path, "--port", "0"] + arguments,
                                            deadlineSeconds: deadlineSeconds)
            url = try #require(process.readLine())
            let afterColon = url.split(separator: ":").last ?? ""
            port = Int(afterColon.prefix { $0.isNumber }) ?? 0
        }

        func stop(signal: Int32 = SIGTERM) -> ProcessResult {
            kill(process.processIdentifier, signal)
            return process.wait()
        }
    }

    @Test("prints only the URL on stdout, answers its own Host, refuses a foreign one by name, and exits 0 on SIGTERM")
    func urlAndHostCheck() throws {
        let server = try Server(["--allowed-host", "shop.lan"])
        #expect(server.url == "http://127.0.0.1:\(server.port)/")
        #expect(server.port > 0)
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "[::1]:\(server.port)", "shop.lan:\(server.port)"] {
            #expect(try RawHTTP.request(port: server.port, "GET", "/api/items", host: host).status == 200, "\(host)")
        }
        let rebinding = try RawHTTP.request(port: server.port, "GET", "/api/items", host: "evil.example:\(server.port)")
        #expect(rebinding.status == 403)
        #expect(rebinding.body.contains("evil.example"))
        #expect(try RawHTTP.request(port: server.port, "GET", "/", host: "localhost:1").status == 403)
        let result = server.stop()
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty, "only the URL line, already read: \(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 6, "one access-log line per request: \(result.stderr)")
        #expect(lines.first?.hasPrefix("GET /api/items 200 ") == true)
    }

    @Test("a token from --token-file: in the printed URL, required, exchanged for a cookie, never logged")
    func token() throws {
        let directory = TemporaryDirectory()
        let token = "s3cret-token-0123456789"
        try (token + "\n").write(toFile: directory.path("token"), atomically: true, encoding: .utf8)
        let server = try Server(["--token-file", directory.path("token"), "--log-format", "json"])
        #expect(server.url.hasSuffix("/?token=\(token)"))
        #expect(try RawHTTP.request(port: server.port, "GET", "/api/items").status == 401)
        #expect(try RawHTTP.request(port: server.port, "GET", "/api/items", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        let exchanged = try RawHTTP.request(port: server.port, "GET", "/?token=\(token)")
        #expect(exchanged.status == 303)
        #expect(exchanged.headers["location"] == "/")
        #expect(exchanged.headers["set-cookie"]?.contains("HttpOnly; SameSite=Strict") == true)
        #expect(try RawHTTP.request(port: server.port, "GET", "/", headers: ["Cookie": "stockroom_token=\(token)"]).status == 200)
        let result = server.stop(signal: SIGINT)
        #expect(result.status == 0)
        #expect(!result.stderr.contains(token))
        let entries = result.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.count == 4)
        #expect(entries.map { $0["status"] as? Int } == [401, 200, 303, 200])
        #expect(entries.allSatisfy { $0["ms"] != nil && $0["method"] as? String == "GET" })
    }

    @Test("malformed requests are answered or dropped; the process goes on serving")
    func malformed() throws {
        let server = try Server()
        let garbage: [[UInt8]] = [Array("GARBAGE\r\n\r\n".utf8), Array("GET / HTTP/1.1\r\nHost: \u{01}\r\n\r\n".utf8), [0, 255, 13, 10, 13, 10],
                                  Array("POST /api/items HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 99999999\r\nContent-Type: application/json\r\n\r\n{".utf8),
                                  Array("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\n\r\n".utf8)]
        for request in garbage {
            _ = try RawHTTP.exchange(port: server.port, request)
            #expect(try RawHTTP.request(port: server.port, "GET", "/api/items").status == 200)
        }
        let body = #"{"name":"After garbage","status":{"case":"inStock","quantity":1}}"#
        #expect(try RawHTTP.request(port: server.port, "POST", "/api/items", headers: ["Content-Type": "application/json"], body: body).status == 201)
        #expect(server.stop().status == 0)
    }

    @Test("bad options exit 64, an address in use 69, each with one error line")
    func refusals() throws {
        let database = CLIDatabase()
        for arguments in [["--port", "70000"], ["--log-format", "xml"], ["--import-limit", "0"], ["--host", ""]] {
            let result = try database.stockroom(arguments: ["serve"] + arguments)
            #expect(result.status == Failure.Code.usage.rawValue, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        let server = try Server()
        let clash = try database.stockroom(arguments: ["serve", "--port", String(server.port)])
        #expect(clash.status == Failure.Code.unavailable.rawValue)
        #expect(clash.stdout.isEmpty)
        #expect(clash.stderr.hasPrefix("error: cannot listen on 127.0.0.1:\(server.port)") && clash.stderr.split(separator: "\n").count == 1, "\(clash.stderr)")
        #expect(server.stop().status == 0)
    }

    @Test("16 clients and a CLI writer on one file: every acknowledged write is there, versions gapless, no 'locked' error")
    func concurrentWriters() throws {
        let server = try Server()
        let clients = 16, perClient = 10, cliWrites = 15
        let failures = ErrorList()
        let cliDone = DispatchSemaphore(value: 0)
        let database = server.database
        Thread {
            for index in 0..<cliWrites {
                let result = try? database.stockroom("items", "add", "--name", "CLI \(index)")
                if result?.status != 0 { failures.add("cli: \(result?.stderr ?? "")") }
            }
            cliDone.signal()
        }.start()
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            for index in 0..<perClient {
                let body = #"{"name":"Web \#(client)-\#(index)","status":{"case":"inStock","quantity":1}}"#
                let response = try? RawHTTP.request(port: port, "POST", "/api/items", headers: ["Content-Type": "application/json"], body: body)
                if response?.status != 201 { failures.add("client \(client): \(response?.status ?? 0) \(response?.body ?? "")") }
            }
        }
        cliDone.wait()
        let result = server.stop()
        #expect(result.status == 0)
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(!result.stderr.contains("locked"))
        let count = try server.database.stockroom("query", "SELECT count(*) FROM items")
        #expect(count.stdout.contains("\(clients * perClient + cliWrites)"), "\(count.stdout)")
        let versions = try server.database.stockroom("query", "SELECT count(*) FROM item_events WHERE version <> 1")
        #expect(versions.stdout.contains("0"), "\(versions.stdout)")
    }
}

/// Failures collected from several threads.
final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ text: String) { lock.withLock { items.append(text) } }
    var all: [String] { lock.withLock { items } }
}

extension ServeCommandTests {
    @Test("SIGTERM while a request waits on a locked database: the stop is bounded, exit 0, nothing written")
    func boundedStop() throws {
        let database = CLIDatabase()
        try database.stockroom("items", "add", "--name", "First")
        // Another process holds the write lock for as long as the test wants.
        let holder = try BackgroundProcess("/usr/bin/sqlite3", [database.path])
        holder.write("BEGIN IMMEDIATE; SELECT 'locked';\n")
        #expect(holder.readLine() == "locked")
        let server = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", database.path, "--port", "0", "--busy-timeout", "600"])
        let url = try #require(server.readLine())
        let port = Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
        let answered = DispatchSemaphore(value: 0), sent = DispatchSemaphore(value: 0)
        let body = #"{"name":"Waiting","status":{"case":"inStock","quantity":1}}"#
        let request = "POST /api/items HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        Thread {
            _ = try? RawHTTP.exchange(port: port, Array(request.utf8), onSent: { sent.signal() })
            answered.signal()
        }.start()
        sent.wait()
        // A whole request and answer on another connection after the POST was sent: the server
        // has read the POST, which now waits for the lock.
        #expect(try RawHTTP.request(port: port, "GET", "/api/items").status == 200)
        kill(server.processIdentifier, SIGTERM)
        let stopped = server.wait()
        answered.wait()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("abandoned, uncommitted"), "\(stopped.stderr)")
        holder.write("ROLLBACK;\n")
        _ = holder.wait()
        let names = try database.stockroom("items", "list", "--format", "json")
        #expect(names.stdout.contains("First") && !names.stdout.contains("Waiting"))
    }
}

extension ServeCommandTests {
    @Test("/api/events: every committed event in commit order, from the CLI too; Last-Event-ID resumes with nothing lost or repeated")
    func events() throws {
        let server = try Server()
        let first = try server.database.stockroom("items", "add", "--name", "From the CLI").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let body = #"{"name":"From the API","status":{"case":"inStock","quantity":1}}"#
        #expect(try RawHTTP.request(port: server.port, "POST", "/api/items", headers: ["Content-Type": "application/json"], body: body).status == 201)
        try server.database.stockroom("items", "update", first, "--quantity", "5")
        let all = try RawHTTP.events(port: server.port, count: 3)
        #expect(all.map(\.id) == ["1", "2", "3"])
        #expect(all.map(\.event) == ["added", "added", "changed"])
        #expect(all[0].data.contains("\"itemId\":\"\(first)\"") && all[2].data.contains("\"version\":2"))
        // Resume after 2: the stream gives 3, then what is committed while it is open.
        let resumed = try RawHTTP.events(port: server.port, headers: ["Last-Event-ID": "2"], count: 3) {
            try server.database.stockroom("items", "delete", first)
            try server.database.stockroom("items", "add", "--name", "Later")
        }
        #expect(resumed.map(\.id) == ["3", "4", "5"])
        #expect(resumed.map(\.event) == ["changed", "deleted", "added"])
        #expect(try RawHTTP.request(port: server.port, "GET", "/api/events", headers: ["Last-Event-ID": "x"]).status == 400)
        // SIGTERM ends open streams at once: the stop is prompt and clean.
        let listener = Thread { _ = try? RawHTTP.events(port: server.port, count: 1000) }
        listener.start()
        let result = server.stop()
        #expect(result.status == 0)
        #expect(!result.stderr.contains("abandoned"), "\(result.stderr)")
    }
}
