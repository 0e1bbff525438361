import CSQLite

/// SQLite's primary result codes as a type, so code reads `.full` rather than `13`.
///
/// The raw values are CSQLite's own `SQLITE_*` constants; ``SQLiteError/primaryResult`` gives
/// the case of an error.
public enum SQLiteResultCode: RawRepresentable, Sendable, Hashable, CaseIterable {
    /// `SQLITE_OK`: success.
    case ok
    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error or a missing table.
    case error
    /// `SQLITE_INTERNAL`: a malfunction inside SQLite itself.
    case `internal`
    /// `SQLITE_PERM`: the requested access mode for a new database cannot be provided.
    case permission
    /// `SQLITE_ABORT`: an operation was aborted, often by a rollback.
    case abort
    /// `SQLITE_BUSY`: another connection holds a lock the operation needs.
    case busy
    /// `SQLITE_LOCKED`: a conflict within the same connection or a shared cache.
    case locked
    /// `SQLITE_NOMEM`: a memory allocation failed.
    case noMemory
    /// `SQLITE_READONLY`: a write was attempted on a read-only database.
    case readOnly
    /// `SQLITE_INTERRUPT`: the operation was interrupted (`sqlite3_interrupt`).
    case interrupt
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    case ioError
    /// `SQLITE_CORRUPT`: the database file is malformed.
    case corrupt
    /// `SQLITE_NOTFOUND`: an unknown opcode or file control.
    case notFound
    /// `SQLITE_FULL`: the disk is full.
    case full
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    case cannotOpen
    /// `SQLITE_PROTOCOL`: a problem with the file-locking protocol.
    case `protocol`
    /// `SQLITE_EMPTY`: not used by SQLite today.
    case empty
    /// `SQLITE_SCHEMA`: the schema changed under a prepared statement.
    case schema
    /// `SQLITE_TOOBIG`: a string or blob is larger than the configured limit.
    case tooBig
    /// `SQLITE_CONSTRAINT`: a constraint (CHECK, UNIQUE, NOT NULL, a trigger's RAISE) refused the change.
    case constraint
    /// `SQLITE_MISMATCH`: a value's type does not fit, such as a non-integer rowid.
    case mismatch
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    case misuse
    /// `SQLITE_NOLFS`: large files are not supported by the host.
    case noLargeFile
    /// `SQLITE_AUTH`: the authoriser callback refused the statement.
    case authorization
    /// `SQLITE_FORMAT`: not used by SQLite today.
    case format
    /// `SQLITE_RANGE`: a parameter index is out of range.
    case range
    /// `SQLITE_NOTADB`: the file is not a SQLite database.
    case notADatabase
    /// `SQLITE_NOTICE`: an unusual operation, reported to the error log.
    case notice
    /// `SQLITE_WARNING`: a warning, reported to the error log.
    case warning
    /// `SQLITE_ROW`: `sqlite3_step` has another row ready.
    case row
    /// `SQLITE_DONE`: `sqlite3_step` has finished.
    case done

    public init?(rawValue: Int32) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }

    /// The code's value in the C API.
    public var rawValue: Int32 {
        switch self {
        case .ok: SQLITE_OK
        case .error: SQLITE_ERROR
        case .internal: SQLITE_INTERNAL
        case .permission: SQLITE_PERM
        case .abort: SQLITE_ABORT
        case .busy: SQLITE_BUSY
        case .locked: SQLITE_LOCKED
        case .noMemory: SQLITE_NOMEM
        case .readOnly: SQLITE_READONLY
        case .interrupt: SQLITE_INTERRUPT
        case .ioError: SQLITE_IOERR
        case .corrupt: SQLITE_CORRUPT
        case .notFound: SQLITE_NOTFOUND
        case .full: SQLITE_FULL
        case .cannotOpen: SQLITE_CANTOPEN
        case .protocol: SQLITE_PROTOCOL
        case .empty: SQLITE_EMPTY
        case .schema: SQLITE_SCHEMA
        case .tooBig: SQLITE_TOOBIG
        case .constraint: SQLITE_CONSTRAINT
        case .mismatch: SQLITE_MISMATCH
        case .misuse: SQLITE_MISUSE
        case .noLargeFile: SQLITE_NOLFS
        case .authorization: SQLITE_AUTH
        case .format: SQLITE_FORMAT
        case .range: SQLITE_RANGE
        case .notADatabase: SQLITE_NOTADB
        case .notice: SQLITE_NOTICE
        case .warning: SQLITE_WARNING
        case .row: SQLITE_ROW
        case .done: SQLITE_DONE
        }
    }

    /// SQLite's symbolic name, such as `SQLITE_FULL`.
    public var name: String {
        switch self {
        case .ok: "SQLITE_OK"
        case .error: "SQLITE_ERROR"
        case .internal: "SQLITE_INTERNAL"
        case .permission: "SQLITE_PERM"
        case .abort: "SQLITE_ABORT"
        case .busy: "SQLITE_BUSY"
        case .locked: "SQLITE_LOCKED"
        case .noMemory: "SQLITE_NOMEM"
        case .readOnly: "SQLITE_READONLY"
        case .interrupt: "SQLITE_INTERRUPT"
        case .ioError: "SQLITE_IOERR"
        case .corrupt: "SQLITE_CORRUPT"
        case .notFound: "SQLITE_NOTFOUND"
        case .full: "SQLITE_FULL"
        case .cannotOpen: "SQLITE_CANTOPEN"
        case .protocol: "SQLITE_PROTOCOL"
        case .empty: "SQLITE_EMPTY"
        case .schema: "SQLITE_SCHEMA"
        case .tooBig: "SQLITE_TOOBIG"
        case .constraint: "SQLITE_CONSTRAINT"
        case .mismatch: "SQLITE_MISMATCH"
        case .misuse: "SQLITE_MISUSE"
        case .noLargeFile: "SQLITE_NOLFS"
        case .authorization: "SQLITE_AUTH"
        case .format: "SQLITE_FORMAT"
        case .range: "SQLITE_RANGE"
        case .notADatabase: "SQLITE_NOTADB"
        case .notice: "SQLITE_NOTICE"
        case .warning: "SQLITE_WARNING"
        case .row: "SQLITE_ROW"
        case .done: "SQLITE_DONE"
        }
    }
}
