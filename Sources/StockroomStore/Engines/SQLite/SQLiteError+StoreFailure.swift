import SQLiteCore

/// What a SQLite error means to a front (``StoreFailure``).
extension SQLiteError: EngineFailure {
    var storeFailureKind: StoreFailure.Kind {
        if isBusy { return .busy }
        // SQLITE_READONLY is a file problem: the file (or its folder, for the journal) cannot
        // be written, whatever front asked.
        if isFileProblem { return .io }
        if isConstraintViolation { return .constraint }
        return .unexpected
    }

    func storeFailureMessage(secondsWaited: () -> String) -> String {
        if isCommitOutcomeUnknown {
            return "the write may or may not have been saved: the disk reported an I/O error while committing (\(codeName): \(message)); check with `stockroom items list` before retrying"
        }
        if isBusy {
            return "the database stayed locked by another process: gave up after waiting \(secondsWaited()) s (--busy-timeout) (\(codeName)); nothing was changed, try again"
        }
        switch primaryResult {
        case .notADatabase: return "the file is not a SQLite database (\(codeName))"
        case .corrupt: return "the database file is corrupt (\(codeName): \(message))"
        case .cannotOpen: return "cannot open the database file (\(codeName): \(message))"
        case .readOnly: return "the database file cannot be written (\(codeName): \(message))"
        case .ioError where isFailedWrite:
            let file = databasePath.map { " to \($0)" } ?? ""
            return "could not write\(file): the disk reported an I/O error or the file-size limit (ulimit -f) was reached (\(codeName)); nothing was changed"
        case .ioError:
            let file = databasePath.map { " on \($0)" } ?? ""
            return "the disk reported an I/O error\(file) (\(codeName): \(message)); nothing was changed"
        case .full:
            let file = databasePath.map { " to \($0)" } ?? ""
            return "the disk is full: SQLite could not write\(file) (\(codeName)); nothing was changed, free some space and try again"
        default: return description
        }
    }
}
