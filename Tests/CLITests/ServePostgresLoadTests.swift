import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

extension ServeCommandTests {
    @Test("PostgreSQL: 16 clients through serve's bounded pool and a CLI writer loop; no error reaches anyone, every acknowledged write found, versions gapless")
    func postgresLoad() throws {
        let database = try PostgresScratchDatabase()
        let environment = ["STOCKROOM_DB": database.uri]
        let process = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", database.uri, "--port", "0"])
        let url = try #require(process.readLine())
        let port = Int(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
        let clients = 16, perClient = 4, edits = 3, cliItems = 12
        let failures = ErrorList()
        /// What was acknowledged: each item's id and the last version a 2xx answer gave it.
        let acknowledged = AcknowledgedVersions()
        let cliDone = DispatchSemaphore(value: 0)
        Thread {
            for index in 0..<cliItems {
                let added = try? Processes.stockroom(["items", "add", "--name", "CLI \(index)", "--quantity", "1"], environment: environment)
                guard added?.status == 0, added?.stderr.isEmpty == true, let id = added?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) else {
                    failures.add("cli add: \(added?.stderr ?? "no result")"); continue
                }
                acknowledged.set(id, version: 1)
                let updated = try? Processes.stockroom(["items", "update", id, "--quantity", "2"], environment: environment)
                if updated?.status == 0 && updated?.stderr.isEmpty == true { acknowledged.set(id, version: 2) } else { failures.add("cli update: \(updated?.stderr ?? "no result")") }
            }
            cliDone.signal()
        }.start()
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            for index in 0..<perClient {
                let body = #"{"name":"Web \#(client)-\#(index)","status":{"case":"inStock","quantity":1}}"#
                guard let created = try? RawHTTP.request(port: port, "POST", "/api/items", headers: ["Content-Type": "application/json"], body: body),
                      created.status == 201, let id = created.headers["location"]?.split(separator: "/").last.map(String.init) else {
                    failures.add("client \(client) add"); continue
                }
                acknowledged.set(id, version: 1)
                for edit in 1...edits {
                    let patch = #"{"status":{"case":"inStock","quantity":\#(edit + 1)}}"#
                    let response = try? RawHTTP.request(port: port, "PATCH", "/api/items/\(id)",
                                                        headers: ["Content-Type": "application/merge-patch+json", "If-Match": "\"\(edit)\""], body: patch)
                    guard response?.status == 200, response?.headers["etag"] == "\"\(edit + 1)\"" else {
                        failures.add("client \(client) edit \(edit): \(response?.status ?? 0) \(response?.body ?? "")"); break
                    }
                    acknowledged.set(id, version: edit + 1)
                }
            }
        }
        cliDone.wait()
        kill(process.processIdentifier, SIGTERM)
        let result = process.wait()
        #expect(result.status == 0)
        #expect(failures.all.isEmpty, "\(failures.all)")
        let statuses = result.stderr.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst(2).first }
        #expect(statuses.count == clients * perClient * (1 + edits), "one access-log line per request: \(result.stderr)")
        #expect(statuses.allSatisfy { $0 == "201" || $0 == "200" }, "\(result.stderr)")
        // Every acknowledged write is there, at the version acknowledged, with each version 1...N in the history once.
        let rows = try Processes.stockroom(["query", "--format", "csv", "SELECT item_id, version FROM item_events ORDER BY item_id, version"], environment: environment)
        #expect(rows.status == 0, "\(rows)")
        var versions: [String: [Int]] = [:]
        for line in rows.stdout.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            if fields.count == 2, let version = Int(fields[1]) { versions[String(fields[0]), default: []].append(version) }
        }
        let expected = acknowledged.all
        #expect(expected.count == clients * perClient + cliItems)
        for (id, version) in expected {
            #expect(versions[id] == Array(1...version), "item \(id): history versions \(versions[id] ?? [])")
        }
        #expect(versions.count == expected.count)
    }
}

/// Item ids and the last version acknowledged for each, from several threads.
final class AcknowledgedVersions: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [String: Int] = [:]
    func set(_ id: String, version: Int) { lock.withLock { versions[id] = version } }
    var all: [String: Int] { lock.withLock { versions } }
}
