import Foundation
import StockroomTestSupport
import Testing

/// The counter's promise with real processes: 16 `stockroom items adjust --by -1` loops and
/// HTTP clients of a running `stockroom serve`, all selling the same item at once, without
/// `--if-version`: every sale counts, each is one history event, nobody fails. On a SQLite file
/// (the write lock taken at BEGIN IMMEDIATE) and on PostgreSQL (the item's row locked).
@Suite struct AdjustConcurrencyTests {
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static let processes = 16, salesPerProcess = 50, httpClients = 4, salesPerClient = 25

    /// A bash loop of `count` sales of `$ITEM`, printing `fail CODE: MESSAGE` for each refused one.
    /// The busy timeout is a minute, not the default 5 s: SQLite's busy handler is not a queue
    /// (a waiter sleeps up to 100 ms and whoever polls first wins), so on a shared two-core
    /// machine under other load one of 17 writers can wait past 5 s; what this test holds is
    /// that no sale is lost or doubled and none fails for any other reason.
    static func salesLoop(count: Int) -> String {
        """
        set -u
        for i in $(seq 1 \(count)); do
            if ! message=$("$STOCKROOM" items adjust "$ITEM" --by -1 --busy-timeout 60 2>&1 >/dev/null); then echo "fail $?: $message"; fi
        done
        """
    }

    @Test(arguments: Engine.allCases)
    func sixteenProcessesAndHTTPClientsSellingOneItemAllCount(_ engine: Engine) throws {
        let directory = TemporaryDirectory()
        let postgres = engine == .postgres ? try PostgresScratchDatabase() : nil
        let location = postgres?.uri ?? directory.path("counter.sqlite")
        let environment = ["STOCKROOM": Processes.stockroomPath, "STOCKROOM_DB": location]
        let sales = Self.processes * Self.salesPerProcess + Self.httpClients * Self.salesPerClient
        // Exactly as many as will be sold: one sale lost leaves some in stock, one counted
        // twice refuses the last sale.
        let added = try Processes.stockroom(["items", "add", "--name", "Counter", "--quantity", String(sales)], environment: environment)
        #expect(added.status == 0, "\(added)")
        let item = added.output
        let server = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", location, "--busy-timeout", "60", "--port", "0"])
        let url = try #require(server.readLine())
        let port = try #require(Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))

        let failures = ErrorList()
        let done = DispatchGroup()
        // Threads of their own, not concurrentPerform: its width is the number of cores, and
        // every seller must run at once.
        for _ in 0..<Self.processes {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let result = try Processes.run("/bin/bash", ["-c", Self.salesLoop(count: Self.salesPerProcess)],
                                                   environment: environment.merging(["ITEM": item]) { $1 }, timeoutSeconds: 1_800)
                    if result.status != 0 || !result.stdout.isEmpty || !result.stderr.isEmpty { failures.add("\(result)") }
                } catch {
                    failures.add("\(error)")
                }
            }.start()
        }
        for client in 0..<Self.httpClients {
            done.enter()
            Thread {
                defer { done.leave() }
                for sale in 0..<Self.salesPerClient {
                    let response = try? RawHTTP.request(port: port, "POST", "/api/items/\(item)/adjustments",
                                                        headers: ["Content-Type": "application/json"], body: #"{"by":-1}"#)
                    if response?.status != 200 { failures.add("client \(client) sale \(sale): \(response?.status ?? 0) \(response?.body ?? "")") }
                }
            }.start()
        }
        done.wait()
        kill(server.processIdentifier, SIGTERM)
        let stopped = server.wait()
        #expect(stopped.status == 0, "\(stopped.stderr.suffix(2000))")
        #expect(failures.all.isEmpty, "\(failures.all.count) failed: \(failures.all.prefix(3))")

        let shown = try Processes.stockroom(["items", "show", item, "--format", "json"], environment: environment)
        #expect(shown.output.contains(#""status":{"case":"outOfStock","isOnBackOrder":false}"#), "\(shown)")
        #expect(shown.output.contains(#""version":\#(1 + sales)"#), "\(shown)")
        // One 'changed' event per sale, each one fewer than the last: none lost, none doubled.
        let events = try Processes.stockroom(["query", "--format", "csv", "SELECT kind, coalesce(to_quantity, 0) FROM item_events ORDER BY version"],
                                             environment: environment)
        #expect(events.status == 0, "\(events)")
        let rows = Array(events.lines.dropFirst())
        let expected = ["added,\(sales)"] + (0..<sales).reversed().map { "changed,\($0)" }
        #expect(rows.count == expected.count)
        let firstDifference = zip(rows, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "event \(firstDifference ?? 0): \(rows[firstDifference ?? 0]), expected \(expected[firstDifference ?? 0])")
    }
}
