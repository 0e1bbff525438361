import PostgresCore
import SQLiteCore
import StockroomMigrations

extension StoreFailure {
    /// An engine's error (or a migration's, or a database file's) as a front prints it: one
    /// sentence in the user's terms, and the category a front turns into its own answer (the
    /// CLI's exit code). Written once here, for both engines, so no front imports an engine
    /// module to explain its errors.
    public struct Report: Sendable, Equatable {
        /// What the failure means to the person who ran the command.
        public enum Category: Sendable, Equatable {
            /// Another process held the database, a race was lost or a server could not be
            /// reached: nothing was changed, the same command may succeed later.
            case busy
            /// The file or the disk failed: I/O, corruption, not a database, a full disk.
            case io
            /// The content broke a rule: a constraint, a migration that cannot be applied or
            /// trusted, a foreign or too old database, a server statement that failed.
            case data
            /// The request itself is wrong: a connection string that cannot be read.
            case usage
            /// The engine's client library could not be loaded.
            case unavailable
            /// Anything else the engine reported: a failure Stockroom did not expect.
            case unexpected
        }

        /// What the failure means.
        public let category: Category
        /// One line for the user, with the engine's own wording and code where it helps.
        public let message: String
    }

    /// The report for `error`, or nil when it is none of an engine's, a migration's or a
    /// database file's errors (a domain or store error, which fronts report with its own
    /// description). `secondsWaited` says how long the command waited for a lock, for the
    /// message of a busy failure.
    public static func report(_ error: any Error, secondsWaited: () -> String) -> Report? {
        switch error {
        case let error as SQLiteError:
            return Report(category: category(of: error) ?? .unexpected, message: describe(error, secondsWaited: secondsWaited))
        case let error as PostgresError:
            return Report(category: category(of: error), message: describe(error, secondsWaited: secondsWaited))
        case let error as MigrationError:
            if case .statementFailed(_, _, let underlying) = error, let category = category(of: underlying) {
                return Report(category: category, message: error.description)
            }
            return Report(category: .data, message: error.description)
        case let error as DatabaseFileError:
            switch error {
            case .foreign, .needsMigration: return Report(category: .data, message: error.description)
            case .cannotRead(_, let underlying), .cannotCreate(_, let underlying):
                return Report(category: underlying.isBusy ? .busy : .io, message: error.description)
            }
        default:
            return nil
        }
    }

    /// SQLite's error as a category, nil for the ones with no meaning of their own.
    private static func category(of error: SQLiteError) -> Report.Category? {
        if error.isBusy { return .busy }
        if error.isFileProblem { return .io }
        if error.isConstraintViolation { return .data }
        return nil
    }

    private static func category(of error: PostgresError) -> Report.Category {
        switch error.kind {
        case .invalidConnectionString: .usage
        case .libraryUnavailable: .unavailable
        case .connectionFailed, .connectionLost, .serializationFailure, .timedOut: .busy
        case .constraintViolation, .unexpectedValue, .other: .data
        }
    }

    /// The server's message; connection strings in it are already redacted by PostgresCore.
    private static func describe(_ error: PostgresError, secondsWaited: () -> String) -> String {
        switch error.kind {
        case .connectionFailed: error.message + "; nothing was changed, try again when the server is reachable"
        case .connectionLost where error.isCommitOutcomeUnknown:
            "the write may or may not have been saved: the connection to the PostgreSQL server broke while committing (\(error.message)); check with `stockroom items list` before retrying"
        case .connectionLost: "the connection to the PostgreSQL server broke (\(error.message)); nothing was changed, try again"
        case .timedOut where error.sqlState == "55P03":
            "another session held the lock on the database past --busy-timeout: gave up after waiting \(secondsWaited()) s (\(error.sqlState ?? "")); nothing was changed, try again"
        default: error.description
        }
    }

    private static func describe(_ error: SQLiteError, secondsWaited: () -> String) -> String {
        if error.isCommitOutcomeUnknown {
            return "the write may or may not have been saved: the disk reported an I/O error while committing (\(error.codeName): \(error.message)); check with `stockroom items list` before retrying"
        }
        if error.isBusy {
            return "the database stayed locked by another process: gave up after waiting \(secondsWaited()) s (--busy-timeout) (\(error.codeName)); nothing was changed, try again"
        }
        switch error.primaryResult {
        case .notADatabase: return "the file is not a SQLite database (\(error.codeName))"
        case .corrupt: return "the database file is corrupt (\(error.codeName): \(error.message))"
        case .cannotOpen: return "cannot open the database file (\(error.codeName): \(error.message))"
        case .readOnly: return "the database file cannot be written (\(error.codeName): \(error.message))"
        case .ioError where error.isFailedWrite:
            let file = error.databasePath.map { " to \($0)" } ?? ""
            return "could not write\(file): the disk reported an I/O error or the file-size limit (ulimit -f) was reached (\(error.codeName)); nothing was changed"
        case .ioError:
            let file = error.databasePath.map { " on \($0)" } ?? ""
            return "the disk reported an I/O error\(file) (\(error.codeName): \(error.message)); nothing was changed"
        case .full:
            let file = error.databasePath.map { " to \($0)" } ?? ""
            return "the disk is full: SQLite could not write\(file) (\(error.codeName)); nothing was changed, free some space and try again"
        default: return error.description
        }
    }
}
