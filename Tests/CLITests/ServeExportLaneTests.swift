import Foundation
import StockroomTestSupport
import Synchronization
import Testing

/// Exports have a lane of their own (`StorePool`'s export threads): slow downloads never hold
/// the threads that read pages. The real `stockroom serve`, real sockets, clients that read
/// their export at 200 KB/s.
@Suite("serve: exports beside pages") struct ServeExportLaneTests {
    /// A client that downloads `/api/export` at `rate` bytes a second until ``stop()``.
    final class SlowExport: Sendable {
        private let received = Atomic<Int>(0)
        private let stopped = Atomic<Bool>(false)
        private let status = Mutex<String>("")
        private let done = DispatchSemaphore(value: 0)

        /// `flowing` is signalled once, when the first bytes arrive.
        init(port: Int, rate: Int, flowing: DispatchSemaphore) throws {
            let descriptor = try RawHTTP.connected(port: port)
            // A small receive buffer, so the server's writes wait for this reader rather than
            // for the kernel.
            var size: Int32 = 16_384
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let request = Array("GET /api/export?format=jsonl HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            Thread.detachNewThread { [self] in
                defer { close(descriptor); done.signal() }
                let start = ContinuousClock.now
                var buffer = [UInt8](repeating: 0, count: 4_096)
                while !stopped.load(ordering: .relaxed) {
                    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { return }
                    if status.withLock({ $0.isEmpty }) {
                        status.withLock { $0 = String(decoding: buffer[0..<min(count, 12)], as: UTF8.self) }
                        flowing.signal()
                    }
                    let total = received.add(count, ordering: .relaxed).newValue
                    // Paced: wait until the bytes read so far are due at `rate`. The pause is the
                    // slow client the test is about (a download at 200 KB/s), not a wait for a race.
                    let due = start + .seconds(Double(total) / Double(rate))
                    let wait = due - .now
                    if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18) }
                }
            }
        }

        var bytes: Int { received.load(ordering: .relaxed) }
        /// The status line's start, once the head arrived ("HTTP/1.1 200").
        var head: String { status.withLock { $0 } }

        func stop() {
            stopped.store(true, ordering: .relaxed)
            done.wait()
        }
    }

    @Test("pages are answered at once while four clients download exports at 200 KB/s each; the exports waiting their turn are not refused",
          .timeLimit(.minutes(5)))
    func pagesBesideSlowExports() throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("migrate", "up").status == 0)
        // About 20 MB of JSON Lines: no export ends while the pages are timed.
        try database.addBulkItems(ServeDisconnectTests.exportedItems)
        let server = try ServeCommandTests.Server(database: database, deadlineSeconds: 280)
        let flowing = DispatchSemaphore(value: 0)
        let exports = try (0..<4).map { _ in try SlowExport(port: server.port, rate: 200_000, flowing: flowing) }
        // The first exports are under way: bytes are flowing, each thread held by its client.
        for _ in 0..<2 { try #require(flowing.wait(timeout: .now() + 120) == .success, "no export started") }
        var milliseconds: [Double] = []
        var failures: [String] = []
        for _ in 0..<200 {
            let start = ContinuousClock.now
            let response = try RawHTTP.request(port: server.port, "GET", "/api/items?limit=50")
            let elapsed = ContinuousClock.now - start
            milliseconds.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
            if response.status != 200 { failures.append("\(response.status)") }
        }
        let sorted = milliseconds.sorted()
        let p50 = sorted[sorted.count / 2], p99 = sorted[sorted.count * 99 / 100], worst = sorted.last ?? 0
        let received = exports.map(\.bytes)
        print("pages beside 4 exports at 200 KB/s: \(sorted.count) pages, p50 \(p50) ms, p99 \(p99) ms, max \(worst) ms; bytes per export \(received)")
        #expect(failures.isEmpty, "\(failures)")
        // The target is a p99 under 50 ms, which `scripts/bench-serve.sh` (pages-exports)
        // measures on a quiet machine (5 to 9 ms, BENCHMARKS.md). Here, beside the rest of the
        // suite on two cores, the test asserts what starvation would break: before the export
        // lane no page was answered within 10 s; a page now waits for no export.
        #expect(p99 < 500, "p99 \(p99) ms: pages wait for exports")
        // Every export is answered (the ones waiting for a thread have their head, 200).
        for export in exports { #expect(export.head.hasPrefix("HTTP/1.1 200"), "\(export.head)") }
        for export in exports { export.stop() }
        // A further export after them is served whole.
        let directory = TemporaryDirectory()
        let whole = try Processes.run("/usr/bin/curl", ["--silent", "--show-error", "--fail", "--output", directory.path("served.jsonl"),
                                                        "http://127.0.0.1:\(server.port)/api/export?format=jsonl"])
        #expect(whole.status == 0, "\(whole)")
        let lines = try String(contentsOfFile: directory.path("served.jsonl"), encoding: .utf8).split(separator: "\n").count
        #expect(lines == ServeDisconnectTests.exportedItems)
        #expect(server.stop().status == 0)
    }
}
