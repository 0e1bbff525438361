import Foundation
import Inventory
import PostgresCore
import StockroomMigrations
@testable import StockroomStore
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
        #expect(try schema.psql("SELECT count(*) FROM schema_migrations").output == String(MigrationSet.embedded(.postgres).migrations.count))
    }
}

/// A server that drops a store's connection (a restart, a failover, an administrator's
/// `pg_terminate_backend`) before a write commits: the write runs again on a new session, with
/// the session's settings (`lock_timeout` from `--busy-timeout`) made again.
@Suite struct DroppedConnectionTests {
    @Test func aWriteWhoseConnectionWasDroppedRunsAgainOnANewSession() throws {
        let schema = try PostgresScratchSchema()
        let connection = try Connection(schema.uri)
        try connection.waitForLocks(upTo: .milliseconds(4_321))
        try PostgresMigrationRunner(connection: connection).migrate()
        let store = InventoryStore(postgres: connection)
        let first = connection.backendProcessID
        let terminated = try schema.psql("SELECT pg_terminate_backend(\(first))")
        #expect(terminated.output == "t", "\(terminated)")

        let item = Item(name: "Kettle", status: .inStock(quantity: 2))
        try store.items.insert(item)
        #expect(connection.backendProcessID != first)
        #expect(try store.items.item(id: item.id) == item)
        #expect(try store.items.history(id: item.id).map(\.version) == [1])
        #expect(try connection.setting("lock_timeout") == "4321ms")
    }
}
