import FoundationEssentials
import Glibc
import Inventory
import TextFormats

/// Maps every error to the exit codes documented in docs/exit-codes.md (sysexits.h values), and
/// prints it as a single `error:` line on stderr: for every program, which supplies only its
/// command-line parser's reading of the parser's own errors (``Parser``).
package enum Failure {
    /// Exit codes: the one list of them. Each case's meaning is in ExitCodes.swift (an
    /// exhaustive switch, so a new case does not compile without one); `stockroom --help` is
    /// generated from them and a test holds docs/exit-codes.md's table to them word for word.
    package enum Code: Int32, CaseIterable, Sendable {
        case success = 0
        case pending = 1       // `migrate status --exit-code`: migrations wait to be applied
        // `items update --if-version`: the item changed since. No sysexits value means "someone
        // else won the race"; scripts test for it to re-read and retry, as they test 1 above.
        case versionConflict = 3
        // `events --follow`: the history it followed is gone (restore, file deleted or
        // replaced). Its own code so that a script can tell "start again from 0" from a failure.
        case historyGone = 4
        case usage = 64        // EX_USAGE
        case dataError = 65    // EX_DATAERR
        case notFound = 66     // EX_NOINPUT
        case unavailable = 69  // EX_UNAVAILABLE: a support library is missing
        case software = 70     // EX_SOFTWARE
        case cannotCreate = 73 // EX_CANTCREAT
        case ioError = 74      // EX_IOERR
        case busy = 75         // EX_TEMPFAIL
        case noPermission = 77 // EX_NOPERM: `sync`: a server hub refused the token or the push
        case interrupted = 130 // 128 + SIGINT: `draft wizard` stopped by Ctrl-C
        case terminated = 143  // 128 + SIGTERM: `draft wizard` stopped by SIGTERM
    }

    /// A failure a program detects itself (a refusal, a missing file), with its exit code.
    package struct Message: Error, CustomStringConvertible {
        package let code: Code
        package let description: String

        package init(code: Code, description: String) {
            self.code = code
            self.description = description
        }
    }

    /// When the command began to wait for the database, so that a busy failure can say how long
    /// it waited (measured, not assumed).
    private static let waitingSince = ContinuousClock.now

    /// Marks the moment the command opens the database.
    package static func startWaiting() { _ = waitingSince }

    /// Seconds since ``startWaiting()``, one decimal.
    package static var secondsWaited: String {
        let waited = waitingSince.duration(to: .now).components
        let seconds = Double(waited.seconds) + Double(waited.attoseconds) * 1e-18
        return fixedPointText(seconds, decimals: 1)
    }

    /// A stop the command has already explained to the user (Ctrl-C in `draft wizard`): exit
    /// with `code`, print nothing more.
    package struct Silent: Error {
        package let code: Code

        package init(code: Code) {
            self.code = code
        }
    }

    /// How a program's command-line parser reads the errors that are its own: an unknown
    /// option, a missing value, a failed validation, and the help, the version or a completion
    /// script asked for, which a parser reports as errors that mean success. The one kind of
    /// error the core cannot know, as it depends on no parser: each program fills this in from
    /// its parser (ArgumentParser's `exitCode(for:)`, `message(for:)` and `fullMessage(for:)`).
    package struct Parser {
        /// The exit status the parser gives an error: 0 when it means success (help, the
        /// version), else a sysexits.h value, read as the ``Code`` of that number
        /// (ArgumentParser's validation failure is `EX_USAGE`, ``Code/usage``); a status with
        /// no ``Code`` is ``Code/software``.
        package let exitStatus: (any Error) -> Int32
        /// The parser's message for an error that is a failure.
        package let message: (any Error) -> String
        /// Prints what an error that means success asked for (the help, the version).
        package let display: (any Error) -> Void

        package init(exitStatus: @escaping (any Error) -> Int32, message: @escaping (any Error) -> String,
                     display: @escaping (any Error) -> Void) {
            self.exitStatus = exitStatus
            self.message = message
            self.display = display
        }
    }

    /// Prints `error` as one `error:` line on stderr and returns the process exit code; when
    /// `parser` reads it as success (help or the version was asked for), prints that instead
    /// and returns 0. A ``Silent`` error prints nothing.
    package static func report(_ error: any Error, parser: Parser) -> Int32 {
        if let silent = error as? Silent { return silent.code.rawValue }
        let (code, message) = classify(error, parser: parser)
        if code == .success {
            parser.display(error)
            return 0
        }
        StandardError.write("error: \(oneLine(message))\n")
        return code.rawValue
    }

    /// Folds a multi-line message into one line; bulleted value lists become comma lists.
    package static func oneLine(_ message: String) -> String {
        var text = ""
        for line in message.split(whereSeparator: \.isNewline) {
            var trimmed = line.drop { $0.isWhitespace }
            while trimmed.last?.isWhitespace == true { trimmed = trimmed.dropLast() }
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

    /// The exit code and message for `error`: every error of the core's is read here, any
    /// other by `parser` (an error that means success reads as ``Code/success`` and "").
    package static func classify(_ error: any Error, parser: Parser) -> (Code, String) {
        // The engines' errors (and the migrations' and files') are explained by the store,
        // for both engines, in the one table the web server reads too (StoreFailure).
        if let failure = StoreFailure.of(error, secondsWaited: { secondsWaited }) {
            return (failure.kind.exitCode, failure.message)
        }
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
            if error.isMalformedInput { return (.usage, error.description) }
            return (.dataError, error.description)
        case let error as TransferError:
            return (.ioError, error.description)
        case let error as BackupError:
            return (code(for: error), error.description)
        case let error as CopyError:
            return (code(for: error), error.description)
        case let error as SyncError:
            return (error.exitCode, error.description)
        case let error as ObservationError:
            if case .databaseMissing = error { return (.notFound, error.description) }
            return (.historyGone, error.description)
        default:
            let status = parser.exitStatus(error)
            if status == Code.success.rawValue { return (.success, "") }
            // The parser's own messages (unknown option, missing value, ValidationError).
            return (Code(rawValue: status) ?? .software, parser.message(error))
        }
    }

    private static func code(for error: BackupError) -> Code {
        switch error {
        case .databaseMissing: .notFound
        case .sameFile, .serverDatabase: .usage
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
        case .sameDatabase, .destinationIsReplica: .usage
        case .sourceMissing: .notFound
        case .destinationNotEmpty: .cannotCreate
        case .undecodableRow: .dataError
        case .verificationFailed: .ioError
        }
    }
}
