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
}
