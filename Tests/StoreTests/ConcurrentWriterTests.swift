import Foundation
import Inventory
import PostgresCore
import StockroomMigrations
import StockroomStore
import StockroomTestSupport
import Testing

/// Several connections changing the same item at once all succeed, on both engines: SQLite
/// serialises writers with its lock, PostgreSQL queues them on the item's row lock
/// (`SELECT … FOR UPDATE`). Every change is one version; none is lost or numbered twice.
@Suite struct ConcurrentWriterTests {
    @Test(arguments: Engine.allCases)
    func writersUpdatingOneItemAllSucceed(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Counter", status: .inStock(quantity: 1))
        try test.store.items.insert(item)
        let location: DatabaseLocation = engine == .sqlite ? .file(test.path) : .postgres(test.schema!.uri)
        let writers = 6, updatesEach = 15
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let store = try InventoryStore(location: location, busyTimeoutMilliseconds: 60_000)
                for update in 0..<updatesEach {
                    try store.items.update(id: item.id, with: ItemEdit(name: "Counter \(writer)-\(update)"))
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let history = try test.store.items.history(id: item.id)
        #expect(history.map(\.version) == Array(1...(1 + writers * updatesEach)))
        #expect(try test.store.items.version(id: item.id) == 1 + writers * updatesEach)
    }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ message: String) { lock.lock(); messages.append(message); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return messages }
}

/// `--busy-timeout` on a server: a lock held by another session past it fails the command with
/// a timed-out error (exit 75 in the CLI) instead of waiting for ever.
@Suite struct PostgresLockTimeoutTests {
    @Test func aMigrationLockHeldPastTheBusyTimeoutIsATimeout() throws {
        let schema = try PostgresScratchSchema()
        let holder = try Connection(schema.uri)
        try holder.query("SELECT pg_advisory_lock($1)", PostgresMigrationRunner.lockKey.rawValue)
        let error = try #require(throws: PostgresError.self) {
            try InventoryStore(location: .postgres(schema.uri), busyTimeoutMilliseconds: 100)
        }
        #expect(error.kind == .timedOut && error.sqlState == "55P03", "\(error)")
        try holder.query("SELECT pg_advisory_unlock($1)", PostgresMigrationRunner.lockKey.rawValue)
        _ = try InventoryStore(location: .postgres(schema.uri), busyTimeoutMilliseconds: 100)
        #expect(try schema.psql("SELECT count(*) FROM schema_migrations").output == "3")
    }
}
