import TextFormats
import ArgumentParser
import FoundationEssentials
import Glibc
import Inventory
import StockroomStore

/// Maps every error to the exit codes documented in the README (sysexits.h values), and
/// prints it as a single `error:` line on stderr.
package enum Failure {
    /// Exit codes: the one list of them. Each case's meaning is in ExitCodes.swift (an
    /// exhaustive switch, so a new case does not compile without one); `stockroom --help` is
    /// generated from them and a test holds the README's table to them word for word.
    package enum Code: Int32, CaseIterable, Sendable {
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

    /// Prints `error` and returns the process exit code; `root` is the program's root command,
    /// whose help or version ArgumentParser asked for when `error` means success.
    package static func report<Root: RootCommand>(_ error: any Error, root: Root.Type) -> Int32 {
        if let silent = error as? Silent { return silent.code.rawValue }
        let (code, message) = classify(error, root: root)
        if code == .success {
            // --help, --version: ArgumentParser reports these as errors that mean success.
            // The help dump feeds `swift package generate-manual`: man fills the lines itself.
            Root.completeForDisplay(wrapped: !CommandLine.arguments.contains("--experimental-dump-help"))
            print(Root.fullMessage(for: error))
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

    /// The exit code and message for `error`; ArgumentParser's own errors are read as `root`'s.
    package static func classify<Root: RootCommand>(_ error: any Error, root: Root.Type) -> (Code, String) {
        // The engines' errors (and the migrations' and files') are explained by the store,
        // for both engines; only the exit code is the CLI's.
        if let report = StoreFailure.report(error, secondsWaited: { secondsWaited }) {
            return (code(for: report.category), report.message)
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
            if case .controlCharacterInName = error { return (.usage, error.description) }
            return (.dataError, error.description)
        case let error as TransferError:
            return (.ioError, error.description)
        case let error as BackupError:
            return (code(for: error), error.description)
        case let error as CopyError:
            return (code(for: error), error.description)
        default:
            let code = Root.exitCode(for: error)
            if code == .success { return (.success, "") }
            // ArgumentParser's own messages (unknown option, missing value, ValidationError).
            return (code == .validationFailure ? .usage : Code(rawValue: code.rawValue) ?? .software,
                    Root.message(for: error))
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
        case .sameDatabase: .usage
        case .sourceMissing: .notFound
        case .destinationNotEmpty: .cannotCreate
        case .undecodableRow: .dataError
        case .verificationFailed: .ioError
        }
    }

    private static func code(for category: StoreFailure.Report.Category) -> Code {
        switch category {
        case .busy: .busy
        case .io: .ioError
        case .data: .dataError
        case .usage: .usage
        case .unavailable: .unavailable
        case .unexpected: .software
        }
    }
}
