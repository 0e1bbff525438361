/// How much a transaction sees of other transactions' work (SQL `ISOLATION LEVEL`).
public enum IsolationLevel: String, Sendable {
    /// Each statement sees what was committed before it began: PostgreSQL's default.
    case readCommitted = "READ COMMITTED"
    /// The whole transaction sees one snapshot; a write that races another fails with 40001.
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one after another; one that cannot be fails with 40001.
    case serializable = "SERIALIZABLE"
}

extension Connection {
    /// Runs `body` in a transaction and commits it, or rolls back when `body` throws.
    ///
    /// - Parameters:
    ///   - isolation: the isolation level; stricter levels can fail with serialization
    ///     failures, which ``retryingTransaction(isolation:maxAttempts:reconnecting:_:)`` retries.
    ///   - readOnly: begins `READ ONLY`: the server refuses any write (SQLSTATE 25006).
    /// - Throws: whatever `body` throws, or ``PostgresError``. When the connection breaks
    ///   during COMMIT the error's `isCommitOutcomeUnknown` is true: the transaction may have
    ///   been committed.
    public func transaction<T>(isolation: IsolationLevel = .readCommitted, readOnly: Bool = false,
                               _ body: () throws -> T) throws -> T {
        try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : ""))
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        let commit: QueryResult
        do {
            commit = try query("COMMIT")
        } catch let error as PostgresError {
            rollbackIfNeeded()
            throw error.kind == .connectionLost ? error.commitOutcomeUnknown() : error
        }
        // COMMIT of a transaction in which a statement failed (and `body` swallowed the error)
        // rolls back and says so only in its command tag.
        if commit.commandTag == "ROLLBACK" {
            throw PostgresError(kind: .other, message: "the transaction was rolled back: a statement in it had failed",
                                sql: "COMMIT")
        }
        return result
    }

    /// Runs `body` in a transaction, running it again from the start when the transaction
    /// fails with a serialization failure (40001) or a deadlock (40P01), up to `maxAttempts`
    /// times in all.
    ///
    /// Only use this when `body` is safe to run more than once: it must do nothing outside the
    /// database (print, send, count) that a failed attempt would leave behind.
    ///
    /// - Parameter reconnecting: also retry, after ``reset()``, when the connection broke
    ///   before COMMIT was sent (nothing was committed). A break *during* COMMIT is never
    ///   retried: its error has `isCommitOutcomeUnknown` set, and the caller must report it.
    public func retryingTransaction<T>(isolation: IsolationLevel = .serializable, maxAttempts: Int = 10,
                                       reconnecting: Bool = false, _ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(isolation: isolation, body)
            } catch let error as PostgresError where attempt < maxAttempts {
                attempt += 1
                if error.isRetryableTransactionFailure { continue }
                if reconnecting, error.kind == .connectionLost, !error.isCommitOutcomeUnknown {
                    try reset()
                    continue
                }
                throw error
            }
        }
    }

    private func rollbackIfNeeded() {
        if transactionState == .inTransaction || transactionState == .inFailedTransaction {
            try? execute("ROLLBACK")
        }
    }
}
