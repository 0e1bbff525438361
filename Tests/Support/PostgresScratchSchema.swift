import Foundation

/// A schema of its own on the shared throwaway server (``PostgresServer/shared``), dropped when
/// released, so tests running in parallel never see each other's tables. Connections made from
/// ``uri`` find their tables there through `search_path`, set in the URI's `options` as a user
/// could. Made and dropped with `psql`, so the helper needs no client library of its own.
public final class PostgresScratchSchema: @unchecked Sendable {
    /// The server.
    public let server: PostgresServer
    /// The schema's name.
    public let name: String

    /// Creates a new, empty schema on the shared server.
    public init() throws {
        server = try PostgresServer.shared
        name = "t_" + UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: "")
        let created = try server.psql("CREATE SCHEMA \(name)")
        guard created.status == 0 else { throw ScratchSchemaError(message: created.description) }
    }

    deinit {
        _ = try? server.psql("DROP SCHEMA IF EXISTS \(name) CASCADE")
    }

    /// A connection URI (Unix socket, superuser) whose sessions use the schema.
    public var uri: String { server.socketURI() + "&options=-c%20search_path%3D\(name)" }

    /// Runs `sql` in the schema with `psql`, as a person would by hand.
    public func psql(_ sql: String) throws -> ProcessResult {
        try server.psql("SET search_path = \(name);\n" + sql)
    }

    struct ScratchSchemaError: Error, CustomStringConvertible {
        let message: String
        var description: String { "cannot create a scratch schema: \(message)" }
    }
}
