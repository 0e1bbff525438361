import CSQLite

/// SQLite's primary result codes as a type, so code reads `.full` rather than `13`.
///
/// The raw values are CSQLite's own `SQLITE_*` constants; ``SQLiteError/primaryResult`` gives
/// the case of an error.
public enum SQLiteResultCode: RawRepresentable, Sendable, Hashable, CaseIterable {
    case ok, error, `internal`, permission, abort, busy, locked, noMemory, readOnly, interrupt,
         ioError, corrupt, notFound, full, cannotOpen, `protocol`, empty, schema, tooBig,
         constraint, mismatch, misuse, noLargeFile, authorization, format, range, notADatabase,
         notice, warning, row, done

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
