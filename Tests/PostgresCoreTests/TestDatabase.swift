import Foundation
import PostgresCore
import StockroomTestSupport

/// A database of its own on the shared test server, dropped when released, so tests never see
/// each other's tables.
final class TestDatabase: @unchecked Sendable {
    let server: PostgresServer
    let name: String

    init() throws {
        server = try PostgresServer.shared
        name = "test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try Connection(server.socketURI()).execute("CREATE DATABASE \(name)")
    }

    deinit {
        try? Connection(server.socketURI()).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The database's connection URI over the Unix socket.
    var uri: String { server.socketURI(database: name) }

    /// A new connection to the database.
    func connect() throws -> Connection { try Connection(uri) }
}

/// A value several threads hand to each other, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
    var current: Value { withValue { $0 } }
}
