import Foundation
import StockroomTestSupport
import Synchronization
import Testing

/// The server killed with SIGKILL while many clients write: a `201` is a promise that the write
/// is in the file, whatever happens to the process after sending it (group commit answers only
/// after the shared COMMIT is durable).
@Suite("serve killed under writes") struct ServeKillTests {
    /// The names acknowledged so far, from several threads, and a signal once there are enough.
    final class Acknowledged: Sendable {
        private let names = Mutex<[String]>([])
        private let enough: Int
        let reachedEnough = DispatchSemaphore(value: 0)
        init(enough: Int) { self.enough = enough }
        func add(_ name: String) {
            let count = names.withLock { names in
                names.append(name)
                return names.count
            }
            if count == enough { reachedEnough.signal() }
        }
        var all: [String] { names.withLock { $0 } }
    }

    @Test("kill -9 while 16 clients POST items: every item answered 201 is in the file, which checks clean", .timeLimit(.minutes(3)))
    func killedWhileWriting() throws {
        let server = try ServeCommandTests.Server()
        let port = server.port, clients = 16
        let acknowledged = Acknowledged(enough: 400)
        let killed = Atomic<Bool>(false)
        let unexpected = ErrorList()
        let finished = DispatchGroup()
        for client in 0..<clients {
            finished.enter()
            Thread {
                defer { finished.leave() }
                var index = 0
                while !killed.load(ordering: .sequentiallyConsistent) {
                    index += 1
                    let name = "Kill \(client)-\(index)"
                    let body = #"{"name":"\#(name)","status":{"case":"inStock","quantity":1}}"#
                    guard let response = try? RawHTTP.request(port: port, "POST", "/api/items", headers: ["Content-Type": "application/json"], body: body),
                          response.status != 0 else { continue }  // the process is gone (or going)
                    if response.status == 201 {
                        acknowledged.add(name)
                    } else {
                        unexpected.add("\(name): \(response.status) \(response.body)")
                    }
                }
            }.start()
        }
        acknowledged.reachedEnough.wait()
        kill(server.process.processIdentifier, SIGKILL)
        _ = server.process.wait()
        killed.store(true, ordering: .sequentiallyConsistent)
        finished.wait()

        #expect(unexpected.all.isEmpty, "\(unexpected.all)")
        let names = acknowledged.all
        let stored = Set(try server.database.sqlite3("SELECT name FROM items").split(separator: "\n").map(String.init))
        let missing = names.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "acknowledged with 201 but not in the file: \(missing.prefix(10))")
        #expect(stored.count >= names.count)
        print("kill -9 under writes: \(names.count) acknowledged, \(stored.count) in the file after the kill, missing \(missing.count)")
        let check = try server.database.stockroom("check")
        #expect(check.status == 0, "\(check)")
    }
}
