import Synchronization

/// A write asked of ``StorePool/groupedWrite(_:)``: its body, which may run inside a
/// transaction shared with the other grouped writes waiting beside it, and its caller, who is
/// answered only once the transaction's fate is known.
struct GroupedWrite: Sendable {
    /// Runs the body in a write transaction of its own, or in a savepoint when one is open,
    /// keeping its result for ``answer``; true when it succeeded. It may run twice: in a group
    /// that is then not applied, and again alone.
    let run: @Sendable (InventoryStore) -> Bool
    /// Gives the caller what the last ``run`` kept.
    let answer: @Sendable () -> Void
    /// Gives the caller `error` instead.
    let fail: @Sendable (any Error) -> Void

    init<T: Sendable>(_ body: @escaping @Sendable (InventoryStore) throws -> T,
                      answering continuation: CheckedContinuation<T, any Error>) {
        let kept = Mutex<Result<T, any Error>?>(nil)
        run = { store in
            let result = Result { try store.write { try body(store) } }
            kept.withLock { $0 = result }
            if case .success = result { return true }
            return false
        }
        answer = {
            // Always set: the lane answers a write only after running it.
            let result = kept.withLock { $0.take() }!
            continuation.resume(with: result)
        }
        fail = { continuation.resume(throwing: $0) }
    }
}

/// Why a group's shared transaction did not commit (`Database.commitTogether`).
enum GroupCommitFailure: Error {
    /// Nothing of the group was applied: each write runs again alone, and its caller gets
    /// what it gets then, which is what it would have got had it never been grouped.
    case notApplied(any Error)
    /// The transaction could not begin (another process held the write lock through the busy
    /// timeout): no write ran; each caller gets this error, as each alone would have.
    case couldNotBegin(any Error)
    /// COMMIT failed in a way that may have come after its commit record reached the disk: the
    /// group may be saved or not. Each caller gets this error (it says so), and no write runs
    /// again, which could apply it twice.
    case outcomeUnknown(any Error)

    /// A group whose transaction SQLite ended by itself after a write's error.
    struct TransactionEnded: Error {}
    static let transactionEnded = TransactionEnded()
}
