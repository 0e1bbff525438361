import Foundation
@testable import StockroomServer
import StockroomStore
import Synchronization
import Testing

/// How the pool runs writes: taking turns in the process on a file, side by side on a server.
@Suite("Store pool") struct StorePoolTests {
    /// How many bodies are inside at once, and the most there ever were.
    final class Occupancy: Sendable {
        private let inside = Atomic<Int>(0)
        private let most = Atomic<Int>(0)
        func enter() {
            let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
            _ = most.max(now, ordering: .sequentiallyConsistent)
        }
        func leave() { inside.subtract(1, ordering: .sequentiallyConsistent) }
        var maximum: Int { most.load(ordering: .sequentiallyConsistent) }
    }

    /// The numbers appended, in the order they were.
    final class Order: Sendable {
        private let numbers = Mutex<[Int]>([])
        func append(_ number: Int) { numbers.withLock { $0.append(number) } }
        var list: [Int] { numbers.withLock { $0 } }
    }

    @Test("on a file the pool's writes take turns in the process; on a server database they run side by side", arguments: Engine.allCases)
    func writesTakeTurns(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let pool = fixture.server.pool
        #expect(pool.size >= 2)
        #expect(pool.serializesWrites == (engine == .sqlite))
        let occupancy = Occupancy()
        let firstInside = DispatchSemaphore(value: 0), secondInside = DispatchSemaphore(value: 0)
        // The first write waits for the second to come in: on a server database it does at once;
        // on a file it cannot while the first holds its turn, so the wait runs out.
        let patience: DispatchTime = .now() + (engine == .sqlite ? 1 : 60)
        async let first: Bool = pool.write { _ in
            occupancy.enter()
            firstInside.signal()
            let met = secondInside.wait(timeout: patience) == .success
            occupancy.leave()
            return met
        }
        await Task.detached { firstInside.wait() }.value
        let second: Void = try await pool.write { _ in
            occupancy.enter()
            secondInside.signal()
            occupancy.leave()
        }
        _ = second
        let met = try await first
        #expect(met == (engine == .postgres))
        #expect(occupancy.maximum == (engine == .sqlite ? 1 : 2))
    }

    /// On a file the writes run in the order they were asked for, and reads go on while they
    /// wait (the writer lane).
    @Test(.timeLimit(.minutes(2)))
    func writesRunInOrderBesideReads() async throws {
        let fixture = try await ServerFixture(.sqlite)
        let pool = fixture.server.pool
        #expect(pool.readingThreads == pool.size - 1)
        // The writer held inside a first write.
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        async let holding: Void = pool.write { _ in
            held.signal()
            release.wait()
        }
        await Task.detached { held.wait() }.value
        // More writes than the pool has threads, each in the queue before the next is asked.
        let order = Order()
        let count = pool.size * 3
        var writes: [Task<Void, any Error>] = []
        for index in 0..<count {
            writes.append(Task { try await pool.write { _ in order.append(index) } })
            while pool.queuedJobs < index + 1 { await Task.yield() }
        }
        // A read is answered while every write waits: no reading thread is held by them.
        let items = try await pool.read { store in try store.items.count() }
        #expect(items == 0)
        #expect(order.list.isEmpty)
        release.signal()
        try await holding
        for write in writes { try await write.value }
        #expect(order.list == Array(0..<count))
    }
}
