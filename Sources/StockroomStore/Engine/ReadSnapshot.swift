import PostgresCore
import SQLiteCore

// `StoreConnection.inReadSnapshot(_:)` for each engine: several statements that must agree
// (a search's count of candidates, which picks its plan, and the rows the plan reads) see one
// snapshot of the database, whoever writes meanwhile.

extension Database {
    /// Runs `body` in a read transaction, or in the transaction already open.
    func inReadSnapshot<T>(_ body: () throws -> T) throws -> T {
        isAutocommit ? try readTransaction(body) : try body()
    }
}

extension PostgresStoreConnection {
    /// Runs `body` in a read-only REPEATABLE READ transaction (one snapshot for all its
    /// statements), or in the transaction already open.
    func inReadSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard connection.transactionState == .idle else { return try body() }
        return try connection.transaction(isolation: .repeatableRead, readOnly: true, body)
    }
}
