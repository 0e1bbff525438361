import LibPQ

/// A statement the server parsed and planned once (PQprepare), run many times with different
/// parameters (PQexecPrepared). Obtain one from ``Connection/preparedStatement(_:)``.
///
/// After ``Connection/reset()`` the server has forgotten it; it is prepared again on next use.
public final class PreparedStatement {
    /// The SQL the statement was prepared from.
    public let sql: String
    let name: String
    unowned let connection: Connection
    private var preparedInSession: Int?

    init(connection: Connection, sql: String, name: String) {
        self.connection = connection
        self.sql = sql
        self.name = name
    }

    func prepareIfNeeded() throws {
        guard preparedInSession != connection.session else { return }
        _ = try connection.check(connection.pq.PQprepare(connection.handle, name, sql, 0, nil), sql: sql)
        preparedInSession = connection.session
    }

    /// Runs the statement with `parameters` bound to `$1`, `$2`, ... and returns its rows.
    @discardableResult
    public func query(_ parameters: any PostgresParameter...) throws -> QueryResult {
        try query(parameters: parameters)
    }

    /// Runs the statement with `parameters` bound to `$1`, `$2`, ... and returns its rows.
    @discardableResult
    public func query(parameters: [any PostgresParameter]) throws -> QueryResult {
        try prepareIfNeeded()
        let result = Connection.withParameterPointers(parameters) { count, values in
            connection.pq.PQexecPrepared(connection.handle, name, count, values, nil, nil, 0)
        }
        return try connection.check(result, sql: sql)
    }

    /// Runs the statement with `parameters` and returns how many rows it changed.
    @discardableResult
    public func run(_ parameters: any PostgresParameter...) throws -> Int {
        try query(parameters: parameters).affectedRowCount
    }
}
