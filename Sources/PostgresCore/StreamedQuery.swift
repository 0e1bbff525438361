import LibPQ

/// A column of a statement's result: its name and the OID of its type (`pg_type.oid`).
public struct ResultColumn: Sendable, Equatable {
    /// The column's name as the server reports it.
    public let name: String
    /// The type's OID: 16 boolean, 17 bytea, 20/21/23 integers, 700/701 floats, 1700 numeric…
    public let typeOID: UInt32
}

/// A statement the server parsed once as the connection's unnamed statement, with what it
/// takes and returns; run it with ``Connection/stream(_:parameters:row:)``.
///
/// For a statement a user wrote: parsing it (PQprepare) refuses several statements in one
/// string and names a missing table or column before anything runs.
public struct DescribedStatement {
    /// The SQL parsed.
    public let sql: String
    /// How many parameters (`$1`, `$2`, …) it takes.
    public let parameterCount: Int
    /// The columns of its rows; empty for a statement that returns none.
    public let columns: [ResultColumn]
}

extension Connection {
    /// Parses `sql` into the connection's unnamed statement and describes it (PQprepare,
    /// PQdescribePrepared). The unnamed statement is replaced by the next one.
    ///
    /// - Throws: ``PostgresError`` when the server refuses the SQL (syntax, a missing table,
    ///   several statements).
    public func describe(_ sql: String) throws -> DescribedStatement {
        _ = try check(pq.PQprepare(handle, "", sql, 0, nil), sql: sql)
        let description = try check(pq.PQdescribePrepared(handle, ""), sql: sql)
        let columns = (0..<description.columnCount).map { index in
            ResultColumn(name: description.columnName(at: index), typeOID: description.columnType(at: index))
        }
        return DescribedStatement(sql: sql, parameterCount: Int(pq.PQnparams(description.handle)), columns: columns)
    }

    /// Runs a described statement with `parameters` (text, nil for NULL) and hands its rows to
    /// `row` one at a time as the server sends them (libpq's single-row mode): a large result
    /// is never held in memory.
    ///
    /// When `row` throws, the statement is cancelled on the server and the rest of its result
    /// discarded, so the connection stays usable.
    ///
    /// - Throws: ``PostgresError`` when the statement fails (after any rows already handed
    ///   over), or what `row` throws.
    public func stream(_ statement: DescribedStatement, parameters: [String?], row: (Row) throws -> Void) throws {
        let sent = Connection.withParameterPointers(parameters) { count, values in
            pq.PQsendQueryPrepared(handle, "", count, values, nil, nil, 0)
        }
        guard sent == 1 else { throw PostgresError(result: nil, connection: self, sql: statement.sql) }
        _ = pq.PQsetSingleRowMode(handle)
        var failure: (any Error)?
        while let next = pq.PQgetResult(handle) {
            guard failure == nil else {
                pq.PQclear(next)
                continue
            }
            switch pq.PQresultStatus(next) {
            case PGRES_SINGLE_TUPLE:
                let result = QueryResult(handle: next, sql: statement.sql, pq: pq)
                do {
                    try row(result[0])
                } catch {
                    failure = error
                    _ = try? canceller().cancel()
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                pq.PQclear(next)
            default:
                failure = PostgresError(result: next, connection: self, sql: statement.sql)
                pq.PQclear(next)
            }
        }
        if let failure { throw failure }
    }
}

extension QueryResult {
    /// The OID of column `index`'s type.
    public func columnType(at index: Int) -> UInt32 {
        pq.PQftype(handle, Int32(index))
    }
}

extension Row {
    /// The length in bytes of column `column`'s text (0 for NULL), without copying it.
    public func byteCount(at column: Int) -> Int {
        Int(result.pq.PQgetlength(result.handle, index, Int32(column)))
    }
}
