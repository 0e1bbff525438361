import Foundation
import Inventory
import StockroomStore
import StockroomTestSupport
import Testing

/// The library's observations (``HistoryEvents``, ``ItemQueryObservation``) woken by commits of
/// other real processes: `stockroom`, the `sqlite3` shell, `psql`. Each wait is for the next
/// value of the sequence, woken by the commit itself; a sequence that is never woken fails by
/// the suite's time limit instead of hanging (no timer of the test's own: in a full parallel
/// run on two cores a task may wait tens of seconds for a thread).
@Suite(.timeLimit(.minutes(3))) struct ObservationTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("inventory.sqlite") }

    func addInAnotherProcess(_ name: String, db: String? = nil) throws -> UUID {
        let added = try Processes.stockroom(["items", "add", "--name", name, "--out-of-stock"], environment: ["STOCKROOM_DB": db ?? path])
        try #require(added.status == 0, "\(added)")
        return try #require(UUID(uuidString: added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func historyEventsGivesEveryCommitOfOtherProcessesInOrderAndResumes() async throws {
        let first = try addInAnotherProcess("First")
        let events = HistoryEvents(location: .file(path))
        let iterator = IteratorBox(events.makeAsyncIterator())
        let event = try await iterator.next()
        #expect(event?.position == 1 && event?.recorded.itemID == first)
        for number in 2...5 {
            let id = try addInAnotherProcess("Item \(number)")
            let next = try await iterator.next()
            #expect(next?.position == Int64(number) && next?.recorded.itemID == id)
        }
        // The sqlite3 shell, and a checkpoint truncating the WAL between two commits.
        let shell = try Processes.sqlite3(path, "PRAGMA wal_checkpoint(TRUNCATE); UPDATE items SET name = 'Renamed' WHERE id = '\(first.lowercasedString)';")
        #expect(shell.status == 0, "\(shell)")
        let renamed = try await iterator.next()
        #expect(renamed?.position == 6 && renamed?.recorded.event.case == .changed)

        var resumed = HistoryEvents(location: .file(path), after: 4).makeAsyncIterator()
        #expect(try await resumed.next()?.position == 5)
        #expect(try await resumed.next()?.position == 6)
    }

    /// Cancelling ends the sequence with no error, whether it had read the one event and waits
    /// for the next or had not started yet. A sequence that ignored the cancellation would wait
    /// for a commit that never comes: the suite's time limit fails it.
    @Test func cancellingTheTaskEndsAWaitingSequence() async throws {
        _ = try addInAnotherProcess("Only")
        let waiting = Task {
            var count = 0
            for try await _ in HistoryEvents(location: .file(path)) { count += 1 }
            return count
        }
        waiting.cancel()
        let count = try await waiting.value
        #expect(count <= 1)
    }

    @Test func aQueryObservationGivesFreshResultsAndCoalescesBursts() async throws {
        _ = try addInAnotherProcess("Out of stock")
        let observation = ItemQueryObservation(location: .file(path), query: ItemQuery(status: .outOfStock))
        let iterator = IteratorBox(observation.makeAsyncIterator())
        let initial = try await iterator.next()
        #expect(initial?.map(\.name) == ["Out of stock"])
        // 50 commits while the consumer is not asking: one fresh result holds them all.
        var script = ""
        for number in 1...50 {
            script += """
                INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
                VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-7' || substr(hex(randomblob(2)), 2) || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
                        'Burst \(String(format: "%02d", number))', NULL, 'out_of_stock', NULL, 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');

                """
        }
        let burst = try Processes.sqlite3(path, script)
        #expect(burst.status == 0, "\(burst)")
        let fresh = try await iterator.next()
        #expect(fresh?.count == 51, "\(fresh?.count ?? -1)")
        // A commit that does not change the result gives no value; the next one that does, does.
        let store = try InventoryStore(path: path)
        try store.items.insert(Item(name: "In stock", status: .inStock(quantity: 2)))
        let gone = try #require(fresh?.first { $0.name == "Burst 01" })
        try store.items.delete(id: gone.id)
        let after = try await iterator.next()
        #expect(after?.count == 50 && after?.contains { $0.name == "In stock" } == false)
    }

    @Test func historyEventsOnPostgreSQLAreWokenByPsql() async throws {
        let schema = try PostgresScratchSchema()
        let first = try addInAnotherProcess("First", db: schema.uri)
        let iterator = IteratorBox(HistoryEvents(location: .postgres(schema.uri)).makeAsyncIterator())
        #expect(try await iterator.next()?.recorded.itemID == first)
        let updated = try schema.psql("UPDATE items SET name = 'From psql' WHERE id = '\(first.lowercasedString)';")
        #expect(updated.status == 0, "\(updated)")
        let event = try await iterator.next()
        #expect(event?.position == 2 && event?.recorded.event.case == .changed)
    }
}

/// An iterator called from a test through a constant, one call at a time.
final class IteratorBox<Iterator: AsyncIteratorProtocol>: @unchecked Sendable where Iterator.Element: Sendable {
    private var iterator: Iterator
    init(_ iterator: Iterator) { self.iterator = iterator }
    func next() async throws -> Iterator.Element? { try await iterator.next() }
}
