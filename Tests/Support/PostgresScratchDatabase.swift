import Foundation

/// A database of its own on the shared throwaway server (``PostgresServer/shared``), created
/// empty (no Stockroom tables, nothing in `public`) and dropped when released: for tests about
/// what happens to a database nobody has used yet. Made and dropped with `psql`.
public final class PostgresScratchDatabase: @unchecked Sendable {
    /// The server.
    public let server: PostgresServer
    /// The database's name.
    public let name: String

    /// Creates a new, empty database on the shared server.
    public init() throws {
        server = try PostgresServer.shared
        name = "d_" + UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: "")
        let created = try server.psql("CREATE DATABASE \(name)")
        guard created.status == 0 else { throw ScratchDatabaseError(message: created.description) }
    }

    deinit {
        _ = try? server.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// A connection URI (Unix socket, superuser) for the database.
    public var uri: String { server.socketURI(database: name) }

    /// Runs `sql` in the database with `psql`, as a person would by hand.
    public func psql(_ sql: String) throws -> ProcessResult {
        try server.psql(sql, database: name)
    }

    struct ScratchDatabaseError: Error, CustomStringConvertible {
        let message: String
        var description: String { "cannot create a scratch database: \(message)" }
    }
}
