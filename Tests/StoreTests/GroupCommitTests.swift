import Dispatch
import Foundation
import Inventory
import SQLiteCore
@testable import StockroomStore
import StockroomTestSupport
import Synchronization
import Testing

/// Group commit on a file (``StorePool/groupedWrite(_:)``): the grouped writes waiting for the
/// pool's writer share one transaction and one commit; each keeps its own outcome.
@Suite("Group commit") struct GroupCommitTests {
    /// What a grouped write was answered.
    enum Answer: Sendable, Equatable {
        case saved
        case refused(String)
    }

    /// A pool on `path` whose writer is held inside a first write until `release`, so that the
    /// writes asked meanwhile queue up and are taken as one group.
    struct HeldWriter {
        let pool: StorePool
        let release = DispatchSemaphore(value: 0)
        let holding: Task<Void, any Error>

        init(_ pool: StorePool) async {
            self.pool = pool
            let held = DispatchSemaphore(value: 0), release = self.release
            holding = Task { try await pool.write { _ in held.signal(); release.wait() } }
            await Task.detached { held.wait() }.value
        }

        /// Asks `body` as a grouped write, once it is in the queue behind the ones before.
        func queue(_ bodies: [@Sendable (InventoryStore) throws -> Void]) async -> [Task<Answer, Never>] {
            var tasks: [Task<Answer, Never>] = []
            for (index, body) in bodies.enumerated() {
                tasks.append(Task {
                    do {
                        try await pool.groupedWrite(body)
                        return .saved
                    } catch {
                        return .refused(String(describing: error))
                    }
                })
                while pool.queuedJobs < index + 1 { await Task.yield() }
            }
            return tasks
        }
    }

    struct Deliberate: Error, CustomStringConvertible {
        var description: String { "deliberately refused after writing" }
    }

    @Test("refused writes in a group roll back alone with their own errors; the others share one commit and are there after reopening")
    func refusedWritesFailAlone() async throws {
        let directory = TemporaryDirectory("stockroom-group")
        let path = directory.path("inventory.sqlite")
        let existing = Item(name: "Existing", status: .inStock(quantity: 2))
        let pool = try await StorePool.open(.file(path), connections: 2)
        try await pool.write { store in try store.items.insert(existing) }
        let held = await HeldWriter(pool)
        let fresh = (0..<6).map { Item(name: "Fresh \($0)", status: .inStock(quantity: 1)) }
        let written = Item(name: "Written, then refused", status: .inStock(quantity: 1))
        let bodies: [@Sendable (InventoryStore) throws -> Void] = [
            { store in try store.items.insert(fresh[0]) },
            // The id is taken: the primary key refuses it.
            { store in try store.items.insert(existing) },
            { store in try store.items.insert(fresh[1]) },
            // Version 1 was current when asked; the adjustment before it in the group made it 2.
            { store in _ = try store.items.adjust(id: existing.id, by: 3, ifVersion: 1) },
            { store in _ = try store.items.update(id: existing.id, with: ItemEdit(name: "Renamed"), ifVersion: 1) },
            { store in try store.items.insert(fresh[2]) },
            // Below zero: the counter's rule refuses it.
            { store in _ = try store.items.adjust(id: existing.id, by: -100) },
            // A body that wrote, then threw: its insert goes with it.
            { store in try store.items.insert(written); throw Deliberate() },
            { store in try store.items.insert(fresh[3]) },
            { store in try store.items.insert(fresh[4]) },
            { store in try store.items.insert(fresh[5]) },
        ]
        let tasks = await held.queue(bodies)
        #expect(pool.groupCommits == 0)
        held.release.signal()
        try await held.holding.value
        var answers: [Answer] = []
        for task in tasks { answers.append(await task.value) }
        #expect(pool.groupCommits == 1, "the queued writes shared one commit")
        pool.close()

        let saved = answers.enumerated().filter { $0.element == .saved }.map(\.offset)
        #expect(saved == [0, 2, 3, 5, 8, 9, 10], "\(answers)")
        guard case .refused(let duplicate) = answers[1], case .refused(let conflict) = answers[4],
              case .refused(let negative) = answers[6], case .refused(let deliberate) = answers[7] else {
            Issue.record("refusals expected: \(answers)")
            return
        }
        #expect(duplicate.contains("UNIQUE") || duplicate.contains("PRIMARY KEY"), "\(duplicate)")
        #expect(conflict == String(describing: StoreError.versionConflict(id: existing.id.lowercasedString, expected: 1, current: 2)))
        #expect(!negative.isEmpty)
        #expect(deliberate == Deliberate().description)

        // Reopened: the saved writes, and nothing of the refused ones.
        let store = try InventoryStore(path: path)
        #expect(try store.items.count() == 1 + fresh.count)
        for item in fresh { #expect(try store.items.item(id: item.id).name == item.name) }
        #expect((try? store.items.item(id: written.id)) == nil)
        let after = try store.items.item(id: existing.id)
        #expect(after.name == "Existing" && after.status == .inStock(quantity: 5))
        #expect(try store.items.version(id: existing.id) == 2)
        #expect(try store.items.history(id: existing.id).map(\.version) == [1, 2])
    }

    @Test("a write whose error ends the shared transaction (the file full) does not take the others: they run again alone and are saved")
    func transactionEndedByOneWrite() async throws {
        let directory = TemporaryDirectory("stockroom-group")
        let path = directory.path("inventory.sqlite")
        // The writer's connection may grow the file by a few pages only: one write far larger
        // than that fails as full, as it would alone; small ones fit.
        let pool = try await StorePool(size: 2, serializesWrites: true, location: .file(path)) {
            let store = try InventoryStore(path: path)
            guard case .sqlite(let database) = store.connection.concrete else { fatalError("a file") }
            try store.items.insert(Item(name: "Seed", status: .inStock(quantity: 1)))
            let pages = try database.withStatement("PRAGMA page_count") { statement in
                _ = try statement.step()
                return statement.int(at: 0)
            }
            try database.execute("PRAGMA max_page_count = \(pages + 40)")
            return store
        }
        let held = await HeldWriter(pool)
        let small = (0..<8).map { Item(name: "Small \($0)", status: .inStock(quantity: 1)) }
        let huge = Item(name: "Huge " + String(repeating: "x", count: 2_000_000), status: .inStock(quantity: 1))
        var bodies: [@Sendable (InventoryStore) throws -> Void] = small.prefix(4).map { item in { store in try store.items.insert(item) } }
        bodies.append { store in try store.items.insert(huge) }
        bodies += small.suffix(4).map { item in { store in try store.items.insert(item) } }
        let tasks = await held.queue(bodies)
        held.release.signal()
        try await held.holding.value
        var answers: [Answer] = []
        for task in tasks { answers.append(await task.value) }
        pool.close()

        #expect(answers.enumerated().filter { $0.element != .saved }.map(\.offset) == [4], "\(answers)")
        if case .refused(let full) = answers[4] { #expect(full.contains("full"), "\(full)") }
        let store = try InventoryStore(path: path)
        for item in small { #expect(try store.items.item(id: item.id).name == item.name) }
        #expect((try? store.items.item(id: huge.id)) == nil)
    }

    @Test("many grouped writers on one pool: every answer is its own, every acknowledged write is there after reopening")
    func manyWritersAcknowledgedAreSaved() async throws {
        let directory = TemporaryDirectory("stockroom-group")
        let path = directory.path("inventory.sqlite")
        let pool = try await StorePool.open(.file(path), connections: 3)
        let counter = Item(name: "Counter", status: .outOfStock(isOnBackOrder: false))
        try await pool.write { store in try store.items.insert(counter) }
        let writers = 16, each = 25
        // Each writer adds items, and takes one from the counter (refused while it is at 0)
        // or gives one to it, so refusals interleave with saved writes in the groups.
        let outcomes = try await withThrowingTaskGroup(of: (added: [UUID], given: Int, taken: Int, refused: Int).self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var added: [UUID] = [], given = 0, taken = 0, refused = 0
                    for index in 0..<each {
                        let item = Item(name: "Writer \(writer) item \(index)", status: .inStock(quantity: index + 1))
                        try await pool.groupedWrite { store in try store.items.insert(item) }
                        added.append(item.id)
                        let change = (writer + index) % 3 == 0 ? 1 : -1
                        do {
                            _ = try await pool.groupedWrite { store in try store.items.adjust(id: counter.id, by: change) }
                            if change > 0 { given += 1 } else { taken += 1 }
                        } catch {
                            #expect(change < 0, "only a take can be refused: \(error)")
                            refused += 1
                        }
                    }
                    return (added, given, taken, refused)
                }
            }
            var all: [(added: [UUID], given: Int, taken: Int, refused: Int)] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        let groups = pool.groupCommits
        pool.close()
        let store = try InventoryStore(path: path)
        let added = outcomes.flatMap(\.added)
        #expect(added.count == writers * each)
        #expect(try store.items.count() == 1 + added.count)
        for id in added { _ = try store.items.item(id: id) }
        let given = outcomes.map(\.given).reduce(0, +), taken = outcomes.map(\.taken).reduce(0, +)
        #expect(try store.items.item(id: counter.id).status.quantityInStock == given - taken)
        #expect(try store.items.history(id: counter.id).count == 1 + given + taken, "one event per saved adjustment")
        print("group commit: \(writers * each * 2) writes, \(outcomes.map(\.refused).reduce(0, +)) refused, \(groups) shared commits")
    }
}
