import PostgresCore
import SQLiteCore

/// What an engine's error means to a front that does not know the engine: whether to say
/// "try again", "not allowed" or "the database failed". The CLI maps errors to exit codes in
/// its own table (it also prints the engine's own wording); a second front (`stockroom serve`)
/// needs only these kinds, so it imports no engine module.
public enum StoreFailure: Sendable, Equatable {
    /// Another process held the database past the busy timeout, a transaction lost a race, or
    /// a server could not be reached: nothing was changed; the same request may succeed later.
    case busy
    /// The database refused a write by a constraint.
    case constraint
    /// The database was opened read-only, or the file cannot be written.
    case readOnly
    /// The client library for the engine could not be loaded.
    case unavailable
    /// The file or server failed: I/O, corruption, a foreign database, anything else.
    case failed

    /// The kind of an engine's error, or nil when `error` is not one (a domain or store error,
    /// which fronts report with its own description).
    public static func of(_ error: any Error) -> StoreFailure? {
        switch error {
        case let error as SQLiteError:
            if error.isBusy { return .busy }
            if error.isConstraintViolation { return .constraint }
            if error.primaryResult == .readOnly { return .readOnly }
            return .failed
        case let error as PostgresError:
            switch error.kind {
            case .connectionFailed, .connectionLost, .serializationFailure, .timedOut: return .busy
            case .constraintViolation: return .constraint
            case .libraryUnavailable: return .unavailable
            case .invalidConnectionString, .unexpectedValue, .other: return .failed
            }
        case let error as DatabaseFileError:
            switch error {
            case .cannotRead(_, let underlying), .cannotCreate(_, let underlying):
                return underlying.isBusy ? .busy : .failed
            case .foreign, .needsMigration: return .failed
            }
        default:
            return nil
        }
    }
}
