import Foundation
import PostgresCore
import StockroomTestSupport

/// A schema of its own on the shared test server, dropped when released, so tests never see
/// each other's tables. Its connections find their tables there through `search_path` (set in
/// the URI's `options`, as a user could). A schema costs milliseconds; a database per test
/// cost about 2 s of copying `template1` each.
final class TestSchema: @unchecked Sendable {
    let server: PostgresServer
    let name: String

    init() throws {
        server = try PostgresServer.shared
        name = "test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try Connection(server.socketURI()).execute("CREATE SCHEMA \(name)")
    }

    deinit {
        try? Connection(server.socketURI()).execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
    }

    /// A connection URI whose sessions use the schema, over the Unix socket.
    var uri: String { server.socketURI() + "&options=-c%20search_path%3D\(name)" }

    /// A new connection using the schema.
    func connect() throws -> Connection { try Connection(uri) }

    /// Runs `sql` in the schema with `psql`, as a person would by hand.
    func psql(_ sql: String) throws -> ProcessResult {
        try server.psql("SET search_path = \(name);\n" + sql)
    }
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
