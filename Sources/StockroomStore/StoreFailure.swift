import StockroomMigrations

/// What an engine's error means to a front that does not know the engine, and how to say it.
///
/// Never thrown: ``of(_:secondsWaited:)`` reads it from an error that was (a `SQLiteError`, a
/// `PostgresError`, a `MigrationError`, …). The store's own refusals are ``StoreError``s, the
/// domain's `InventoryError`s; the DocC article "Errors" has the table.
///
/// The one table from an engine's error (or a migration's, or a database file's) to its
/// meaning: the CLI turns ``Kind`` into an exit code and the web server into an HTTP status,
/// both through `Kind/exitCode` and ``Kind/httpStatus`` below, so the two fronts cannot
/// disagree about an error (a read-only file, a malformed connection string). No front imports
/// an engine module to explain its errors.
public struct StoreFailure: Sendable, Equatable {
    /// What the failure means to the person who made the request.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// Another process held the database past the busy timeout, a transaction lost a race,
        /// or a server could not be reached: nothing was changed; the same request may succeed
        /// later.
        case busy
        /// The database refused a write by a constraint: nothing was changed.
        case constraint
        /// The content broke a rule: a migration that cannot be applied or trusted, a foreign
        /// or too old database, a server statement that failed or a value it returned.
        case data
        /// The file or the disk failed: I/O, corruption, not a database, a full disk, a file
        /// that cannot be written (permissions, a read-only mount).
        case io
        /// The request itself is wrong: a connection string that cannot be read.
        case usage
        /// The engine's client library could not be loaded.
        case unavailable
        /// Anything else the engine reported: a failure Stockroom did not expect.
        case unexpected
    }

    /// What the failure means.
    public let kind: Kind
    /// One line for the user, with the engine's own wording and code where it helps. It may
    /// quote the SQL that failed (never the values bound to it): a front that answers
    /// untrusted clients says ``clientDetail`` instead.
    public let message: String

    /// What a front answering clients over a network (HTTP) says: ``message`` where it quotes
    /// no statement and measures no wait of the caller's, else the kind's fixed sentence.
    public var clientDetail: String {
        switch kind {
        case .io, .usage, .unavailable: message
        case .busy, .constraint, .data, .unexpected: kind.fixedDetail
        }
    }

    /// The failure for `error`, or nil when it is none of an engine's, a migration's or a
    /// database file's errors (a domain or store error, which fronts report with its own
    /// description). `secondsWaited` says how long the request waited for a lock, for the
    /// message of a busy failure.
    public static func of(_ error: any Error, secondsWaited: () -> String) -> StoreFailure? {
        switch error {
        case let error as any EngineFailure:
            return StoreFailure(kind: error.storeFailureKind, message: error.storeFailureMessage(secondsWaited: secondsWaited))
        case let error as MigrationError:
            // A migration's statement that failed for a reason of its own (a syntax error, a
            // rule the data breaks) is the migration's failure: data. One that met a lock, a
            // full disk or a lost server says so.
            if case .statementFailed(_, _, let underlying) = error,
               let engine = of(underlying, secondsWaited: secondsWaited), engine.kind != .unexpected {
                return StoreFailure(kind: engine.kind, message: error.description)
            }
            return StoreFailure(kind: .data, message: error.description)
        case let error as DatabaseFileError:
            switch error {
            case .foreign, .needsMigration: return StoreFailure(kind: .data, message: error.description)
            case .cannotRead(_, let underlying), .cannotCreate(_, let underlying):
                return StoreFailure(kind: underlying.isBusy ? .busy : .io, message: error.description)
            }
        default:
            return nil
        }
    }
}

/// An engine's error, as it reads to a front that does not know the engine: each engine's
/// error type conforms in its folder (Engines/SQLite/SQLiteError+StoreFailure.swift,
/// Engines/PostgreSQL/PostgresError+StoreFailure.swift), so this file names no engine.
protocol EngineFailure: Error {
    /// What the error means.
    var storeFailureKind: StoreFailure.Kind { get }
    /// The one line for the user; `secondsWaited` says how long the request waited for a lock.
    func storeFailureMessage(secondsWaited: () -> String) -> String
}

extension StoreFailure.Kind {
    /// The exit code a program ends with for this kind (the README's "Exit codes" table).
    package var exitCode: Failure.Code {
        switch self {
        case .busy: .busy
        case .constraint, .data: .dataError
        case .io: .ioError
        case .usage: .usage
        case .unavailable: .unavailable
        case .unexpected: .software
        }
    }

    /// The HTTP status the web front answers with for this kind: a client can do something
    /// about none of them but `busy` and `unavailable` (try again: 503 with `Retry-After`) and
    /// `constraint` (the write it sent broke a rule: 422); the rest are the server's own
    /// failures (500).
    public var httpStatus: Int {
        switch self {
        case .busy, .unavailable: 503
        case .constraint: 422
        case .data, .io, .usage, .unexpected: 500
        }
    }

    /// Seconds a client should wait before retrying (`Retry-After`), for the kinds that say
    /// "try again"; nil for the others.
    public var retryAfterSeconds: Int? {
        switch self {
        case .busy: 1
        case .unavailable: 60
        case .constraint, .data, .io, .usage, .unexpected: nil
        }
    }

    /// The kind in one sentence, for ``StoreFailure/clientDetail``.
    fileprivate var fixedDetail: String {
        switch self {
        case .busy: "the database stayed locked by another process past --busy-timeout, or the server could not be reached; nothing was changed, try again"
        case .constraint: "the database refused the write: a constraint was broken; nothing was changed"
        case .data, .unexpected: "the database reported an error; nothing was changed"
        case .io: "the database file cannot be read or written; nothing was changed"
        case .usage: "the database's connection string cannot be read"
        case .unavailable: "the database's client library could not be loaded"
        }
    }
}
