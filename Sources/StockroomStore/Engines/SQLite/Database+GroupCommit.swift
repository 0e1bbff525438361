import SQLiteCore

// Group commit on a file (``StorePool/groupedWrite(_:)``): the writes waiting for the pool's
// writer lane share one transaction and one sync. SQLite makes a commit durable with an fsync
// of the WAL, and a lone writer connection can make only as many commits a second as the disk
// takes fsyncs; 16 clients each waiting for their own fsync took 0.77x (W10) and 0.67x (W10b)
// of one connection's floor (BENCHMARKS.md, "Group commit").

extension Database {
    /// Runs `writes` in one `BEGIN IMMEDIATE` transaction, each in a savepoint of its own, and
    /// commits them with one COMMIT. Each write runs its body and returns whether it succeeded;
    /// a write that fails is rolled back to its savepoint, alone, and keeps its own error.
    ///
    /// - Throws: ``GroupCommitFailure``: nothing of any write was applied, or (an I/O error
    ///   during COMMIT) nobody can know whether the group was.
    func commitTogether(_ writes: [() -> Bool]) throws {
        var began = false
        do {
            try writeTransaction {
                began = true
                for write in writes {
                    try execute("SAVEPOINT stockroom_group")
                    let succeeded = write()
                    // SQLite rolls a whole transaction back by itself after some errors
                    // (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM): the writes before this one
                    // went with it, so none of the group may be reported as saved.
                    guard !isAutocommit else { throw GroupCommitFailure.notApplied(GroupCommitFailure.transactionEnded) }
                    if !succeeded {
                        // A rollback that does not happen would leave the failed write's
                        // changes in the others' commit: the group is abandoned instead.
                        try execute("ROLLBACK TO stockroom_group")
                    }
                    try execute("RELEASE stockroom_group")
                }
            }
        } catch let error as SQLiteError where error.isCommitOutcomeUnknown {
            throw GroupCommitFailure.outcomeUnknown(error)
        } catch let failure as GroupCommitFailure {
            throw failure
        } catch {
            // BEGIN IMMEDIATE failed (another process held the lock for the whole busy
            // timeout): no write ran, and each alone would have begun the same way.
            // Anything later (a savepoint statement, a COMMIT that failed before its commit
            // record): writeTransaction rolled the group back.
            throw began ? GroupCommitFailure.notApplied(error) : GroupCommitFailure.couldNotBegin(error)
        }
    }
}
