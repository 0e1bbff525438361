import ArgumentParser
import Foundation
import Inventory
import PostgresCore
import SQLiteCore
import StockroomMigrations
import StockroomStore

/// Maps every error to the exit codes documented in the README (sysexits.h values), and
/// prints it as a single `error:` line on stderr.
enum Failure {
    /// Exit codes: the one list of them. Each case's meaning is in ExitCodes.swift (an
    /// exhaustive switch, so a new case does not compile without one); `stockroom --help` is
    /// generated from them and a test holds the README's table to them word for word.
    enum Code: Int32, CaseIterable {
        case success = 0
        case pending = 1       // `migrate status --exit-code`: migrations wait to be applied
        // `items update --if-version`: the item changed since. No sysexits value means "someone
        // else won the race"; scripts test for it to re-read and retry, as they test 1 above.
        case versionConflict = 3
        case usage = 64        // EX_USAGE
        case dataError = 65    // EX_DATAERR
        case notFound = 66     // EX_NOINPUT
        case unavailable = 69  // EX_UNAVAILABLE: a support library is missing
        case software = 70     // EX_SOFTWARE
        case cannotCreate = 73 // EX_CANTCREAT
        case ioError = 74      // EX_IOERR
        case busy = 75         // EX_TEMPFAIL
        case interrupted = 130 // 128 + SIGINT: `draft wizard` stopped by Ctrl-C
        case terminated = 143  // 128 + SIGTERM: `draft wizard` stopped by SIGTERM
    }

    /// A failure the CLI detects itself, with its exit code.
    struct Message: Error, CustomStringConvertible {
        let code: Code
        let description: String
    }

    /// When the command began to wait for the database, so that a busy failure can say how long
    /// it waited (measured, not assumed).
    private static let waitingSince = ContinuousClock.now

    /// Marks the moment the command opens the database.
    static func startWaiting() { _ = waitingSince }

    /// Seconds since ``startWaiting()``, one decimal.
    static var secondsWaited: String {
        let waited = waitingSince.duration(to: .now).components
        let seconds = Double(waited.seconds) + Double(waited.attoseconds) * 1e-18
        return String(format: "%.1f", seconds)
    }

    /// A stop the command has already explained to the user (Ctrl-C in `draft wizard`): exit
    /// with `code`, print nothing more.
    struct Silent: Error {
        let code: Code
    }

    /// Prints `error` and returns the process exit code.
    static func report(_ error: any Error) -> Int32 {
        if let silent = error as? Silent { return silent.code.rawValue }
        let (code, message) = classify(error)
        if code == .success {
            // --help, --version: ArgumentParser reports these as errors that mean success.
            // The help dump feeds `swift package generate-manual`: man fills the lines itself.
            Stockroom.completeForDisplay(wrapped: !CommandLine.arguments.contains("--experimental-dump-help"))
            print(Stockroom.fullMessage(for: error))
            return 0
        }
        StandardError.write("error: \(oneLine(message))\n")
        return code.rawValue
    }

    /// Folds a multi-line message into one line; bulleted value lists become comma lists.
    static func oneLine(_ message: String) -> String {
        var text = ""
        for line in message.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("- ") {
                text += (text.hasSuffix(":") ? " " : ", ") + trimmed.dropFirst(2)
            } else {
                text += (text.isEmpty ? "" : "; ") + trimmed
            }
        }
        return lowercasingFirstWord(text)
    }

    /// "The value" becomes "the value", as the line follows "error: "; a first word that is a
    /// name or code (`SQLITE_FULL`, `SQL`, `UTF-8`, `--db`) keeps its casing.
    private static func lowercasingFirstWord(_ text: String) -> String {
        let firstWord = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        guard let first = firstWord.first, first.isUppercase,
              firstWord.dropFirst().allSatisfy(\.isLowercase) else { return text }
        return first.lowercased() + text.dropFirst()
    }

    static func classify(_ error: any Error) -> (Code, String) {
        switch error {
        case let error as Message:
            return (error.code, error.description)
        case let error as StoreError:
            switch error {
            case .notFound: return (.notFound, error.description)
            case .ambiguousID, .malformedID: return (.usage, error.description)
            case .undecodableRow: return (.dataError, error.description)
            case .versionConflict: return (.versionConflict, error.description)
            }
        case let error as InventoryError:
            if case .controlCharacterInName = error { return (.usage, error.description) }
            return (.dataError, error.description)
        case let error as DatabaseFileError:
            switch error {
            case .foreign, .needsMigration: return (.dataError, error.description)
            case .cannotRead, .cannotCreate: return (sqliteCode(errorOf: error) ?? .ioError, error.description)
            }
        case let error as TransferError:
            return (.ioError, error.description)
        case let error as BackupError:
            return (code(for: error), error.description)
        case let error as CopyError:
            return (code(for: error), error.description)
        case let error as MigrationError:
            if case .statementFailed(_, _, let underlying) = error, let code = sqliteCode(underlying), code != .software {
                return (code, error.description)
            }
            return (.dataError, error.description)
        case let error as SQLiteError:
            return (sqliteCode(error) ?? .software, describe(error))
        case let error as PostgresError:
            return (code(for: error), describe(error))
        default:
            let code = Stockroom.exitCode(for: error)
            if code == .success { return (.success, "") }
            // ArgumentParser's own messages (unknown option, missing value, ValidationError).
            return (code == .validationFailure ? .usage : Code(rawValue: code.rawValue) ?? .software,
                    Stockroom.message(for: error))
        }
    }

    private static func code(for error: BackupError) -> Code {
        switch error {
        case .databaseMissing: .notFound
        case .sameFile: .usage
        case .notStockroomDatabase: .dataError
        case .destinationExists, .cannotCreate, .liveDatabaseNotEmpty: .cannotCreate
        case .unreadable, .fileSystem, .copyDamaged, .placedButNotSynced, .placedWithLitter, .diskFull: .ioError
        case .sourceRejected: error.isCorruption ? .ioError : .dataError
        }
    }

    /// `copy`'s own refusals: the same database on both sides is a usage error, a missing
    /// source is not found, a non-empty destination would be overwritten, and rows read back
    /// that differ from the source are an I/O failure (nothing was committed).
    private static func code(for error: CopyError) -> Code {
        switch error {
        case .sameDatabase: .usage
        case .sourceMissing: .notFound
        case .destinationNotEmpty: .cannotCreate
        case .undecodableRow: .dataError
        case .verificationFailed: .ioError
        }
    }

    private static func code(for error: PostgresError) -> Code {
        switch error.kind {
        case .invalidConnectionString: .usage
        case .libraryUnavailable: .unavailable
        case .connectionFailed, .connectionLost, .serializationFailure, .timedOut: .busy
        case .constraintViolation, .unexpectedValue, .other: .dataError
        }
    }

    /// The server's message; connection strings in it are already redacted by PostgresCore.
    private static func describe(_ error: PostgresError) -> String {
        switch error.kind {
        case .connectionFailed: error.message + "; nothing was changed, try again when the server is reachable"
        case .connectionLost where error.isCommitOutcomeUnknown:
            "the write may or may not have been saved: the connection to the PostgreSQL server broke while committing (\(error.message)); check with `stockroom items list` before retrying"
        case .connectionLost: "the connection to the PostgreSQL server broke (\(error.message)); nothing was changed, try again"
        case .timedOut where error.sqlState == "55P03":
            "another session held the lock on the database past --busy-timeout: gave up after waiting \(secondsWaited) s (\(error.sqlState ?? "")); nothing was changed, try again"
        default: error.description
        }
    }

    private static func sqliteCode(errorOf error: DatabaseFileError) -> Code? {
        switch error {
        case .cannotRead(_, let underlying), .cannotCreate(_, let underlying):
            underlying.isBusy ? .busy : .ioError
        default: nil
        }
    }

    private static func sqliteCode(_ error: SQLiteError) -> Code? {
        if error.isBusy { return .busy }
        if error.isFileProblem { return .ioError }
        if error.isConstraintViolation { return .dataError }
        return nil
    }

    private static func describe(_ error: SQLiteError) -> String {
        if error.isCommitOutcomeUnknown {
            return "the write may or may not have been saved: the disk reported an I/O error while committing (\(error.codeName): \(error.message)); check with `stockroom items list` before retrying"
        }
        if error.isBusy {
            return "the database stayed locked by another process: gave up after waiting \(secondsWaited) s (--busy-timeout) (\(error.codeName)); nothing was changed, try again"
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
