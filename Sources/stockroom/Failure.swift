import ArgumentParser
import Foundation
import Inventory
import SQLiteCore
import StockroomMigrations
import StockroomStore

/// Maps every error to the exit codes documented in the README (sysexits.h values), and
/// prints it as a single `error:` line on stderr.
enum Failure {
    /// Exit codes; see the README's table.
    enum Code: Int32 {
        case success = 0
        case pending = 1       // `migrate status --exit-code`: migrations wait to be applied
        // `items update --if-version`: the item changed since. No sysexits value means "someone
        // else won the race"; scripts test for it to re-read and retry, as they test 1 above.
        case versionConflict = 3
        case usage = 64        // EX_USAGE
        case dataError = 65    // EX_DATAERR
        case notFound = 66     // EX_NOINPUT
        case software = 70     // EX_SOFTWARE
        case cannotCreate = 73 // EX_CANTCREAT
        case ioError = 74      // EX_IOERR
        case busy = 75         // EX_TEMPFAIL
    }

    /// A failure the CLI detects itself, with its exit code.
    struct Message: Error, CustomStringConvertible {
        let code: Code
        let description: String
    }

    /// Prints `error` and returns the process exit code.
    static func report(_ error: any Error) -> Int32 {
        let (code, message) = classify(error)
        if code == .success {
            // --help, --version: ArgumentParser reports these as errors that mean success.
            print(Stockroom.fullMessage(for: error))
            return 0
        }
        FileHandle.standardError.write(Data("error: \(oneLine(message))\n".utf8))
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
        let first = text.prefix(1).lowercased()
        return first + text.dropFirst()
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
            return (.dataError, error.description)
        case let error as BackupError:
            return (code(for: error), error.description)
        case let error as MigrationError:
            if case .statementFailed(_, _, let underlying) = error, let code = sqliteCode(underlying), code != .software {
                return (code, error.description)
            }
            return (.dataError, error.description)
        case let error as SQLiteError:
            return (sqliteCode(error) ?? .software, describe(error))
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
        case .unreadable, .fileSystem, .copyDamaged: .ioError
        case .sourceRejected: error.isCorruption ? .ioError : .dataError
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
            return "the database stayed locked by another process past the busy timeout (\(error.codeName)); nothing was changed, try again"
        }
        switch error.primaryCode {
        case 26: return "the file is not a SQLite database (\(error.codeName))"
        case 11: return "the database file is corrupt (\(error.codeName): \(error.message))"
        case 14: return "cannot open the database file (\(error.codeName): \(error.message))"
        case 8: return "the database file cannot be written (\(error.codeName): \(error.message))"
        default: return error.description
        }
    }
}
