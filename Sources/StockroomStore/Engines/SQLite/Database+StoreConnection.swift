import SQLiteCore
import StockroomMigrations

// SQLite's side of the seam (Seam/StoreConnection.swift): `Database` and `Statement` are the
// connection and statement as they are, so the repositories specialised for them make the
// same direct calls as before the seam.

extension SQLiteCore.Statement: StoreStatement {
    @inline(__always)
    var knownRowCount: Int? { nil }

    func describeColumn(at index: Int) -> String {
        value(at: index).debugDescription
    }

    func fieldText(at index: Int) -> String {
        switch value(at: index) {
        case .null: ""
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let bytes): bytes.map { String($0, radix: 16) }.joined()
        }
    }
}

extension Database: StoreConnection {
    var dialect: DatabaseEngine { .sqlite }

    /// Runs `body` in a new write transaction (`BEGIN IMMEDIATE`), or in a savepoint when one
    /// is already open.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        isAutocommit ? try writeTransaction(body) : try savepoint("stockroom", body)
    }

    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try readTransaction(body)
    }

    /// None: a statement steps to each row as SQLite makes it, so one statement reads them all.
    var readPageSize: Int? { nil }

    @inline(__always)
    func bindLimit(_ limit: Int?, to statement: SQLiteCore.Statement, at index: Int) throws {
        // SQLite reads a negative LIMIT as none.
        try statement.bind(limit ?? -1, at: index)
    }
}
