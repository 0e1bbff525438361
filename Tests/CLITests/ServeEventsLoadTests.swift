import Foundation
import StockroomTestSupport
import Testing

/// `GET /api/events` under load: 16 writer processes and 50 streams on one file. Every stream
/// gets every event exactly once, in commit order, however its reads and the commits interleave.
@Suite struct ServeEventsLoadTests {
    @Test func sixteenWritersAndFiftyStreamsEveryStreamGetsEveryEventOnceInOrder() throws {
        let server = try ServeCommandTests.Server()
        let writers = 16, itemsPerWriter = 5, streams = 50
        let total = writers * itemsPerWriter
        let received = LockedValue<[[String]]>([])
        let failures = LockedValue<[String]>([])
        let allOpen = DispatchGroup(), allDone = DispatchGroup()
        for _ in 0..<streams {
            allOpen.enter()
            allDone.enter()
            Thread {
                defer { allDone.leave() }
                do {
                    let events = try RawHTTP.events(port: server.port, count: total) { allOpen.leave() }
                    received.withLock { $0.append(events.map(\.id)) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    allOpen.leave()
                }
            }.start()
        }
        allOpen.wait()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for number in 0..<itemsPerWriter {
                guard let added = try? server.database.stockroom("items", "add", "--name", "W\(writer)-\(number)"),
                      added.status == 0 else {
                    failures.withLock { $0.append("writer \(writer) failed") }
                    return
                }
            }
        }
        allDone.wait()
        #expect(failures.withLock { $0 } == [])
        let expected = (1...total).map(String.init)
        let streamsSeen = received.withLock { $0 }
        #expect(streamsSeen.count == streams)
        for ids in streamsSeen { #expect(ids == expected) }
        #expect(server.stop().status == 0)
    }
}

/// A value behind a lock, for the test's threads.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
