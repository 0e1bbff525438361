import CSQLite

/// An error reported by SQLite, carrying everything needed to understand it without a debugger:
/// the extended result code, SQLite's own message, and the SQL and arguments that were running.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (for example `SQLITE_CONSTRAINT_CHECK`, 275).
    public let extendedCode: Int32
    /// SQLite's message for this failure (`sqlite3_errmsg`), or the generic text of the code.
    public let message: String
    /// The SQL statement that failed, when the failure belongs to a statement.
    public let sql: String?
    /// The SQL with the arguments bound when it failed rendered as literals (`sqlite3_expanded_sql`).
    public let expandedSQL: String?
    /// True when the failure happened at COMMIT with an I/O error: SQLite may or may not have
    /// made the transaction durable, so the caller must not claim that the write failed.
    public let isCommitOutcomeUnknown: Bool

    /// Creates an error from its parts.
    public init(
        extendedCode: Int32,
        message: String,
        sql: String? = nil,
        expandedSQL: String? = nil,
        isCommitOutcomeUnknown: Bool = false
    ) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.expandedSQL = expandedSQL
        self.isCommitOutcomeUnknown = isCommitOutcomeUnknown
    }

    /// Reads the current error of a connection.
    init(connection: OpaquePointer?, code: Int32, sql: String? = nil, expandedSQL: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // sqlite3_extended_errcode reports the most recent error; trust `code` when they disagree.
        let resolved = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let text: String
        if let connection, let cMessage = sqlite3_errmsg(connection) {
            text = String(cString: cMessage)
        } else {
            text = String(cString: sqlite3_errstr(code))
        }
        self.init(extendedCode: resolved, message: text, sql: sql, expandedSQL: expandedSQL)
    }

    /// The primary result code (the low byte of the extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { extendedCode & 0xFF }

    /// SQLite's symbolic name for the extended code, such as `SQLITE_BUSY` or `SQLITE_CONSTRAINT_CHECK`.
    public var codeName: String { SQLiteResultCodeNames.name(for: extendedCode) }

    /// The database stayed locked by another connection past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// A constraint (CHECK, NOT NULL, UNIQUE, PRIMARY KEY, FOREIGN KEY) refused the write.
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// The file is not usable as a database: not SQLite, corrupt, unreadable or unwritable.
    public var isFileProblem: Bool {
        [SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_READONLY,
         SQLITE_FULL, SQLITE_PERM, SQLITE_AUTH, SQLITE_NOLFS].contains(primaryCode)
    }

    /// The statement was stopped by `sqlite3_interrupt` (for example a query time limit).
    public var isInterrupted: Bool { primaryCode == SQLITE_INTERRUPT }

    /// One line: code, message, and the SQL that failed.
    public var description: String {
        var text = "\(codeName) (\(extendedCode)): \(message)"
        if isCommitOutcomeUnknown {
            text += "; the commit's outcome is unknown, the write may or may not have been saved"
        }
        if let sql = expandedSQL ?? sql {
            text += " — in `\(SQLiteError.oneLine(sql))`"
        }
        return text
    }

    static func oneLine(_ sql: String) -> String {
        let collapsed = sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return collapsed.count > 200 ? String(collapsed.prefix(200)) + "…" : collapsed
    }
}

/// Symbolic names of SQLite's result codes, so errors read as `SQLITE_BUSY` rather than `5`.
enum SQLiteResultCodeNames {
    static func name(for code: Int32) -> String {
        if let extended = extendedNames[code] { return extended }
        return primaryNames[code & 0xFF] ?? "SQLITE_ERROR_\(code)"
    }

    private static let primaryNames: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
        5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY",
        9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND",
        13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY",
        17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH",
        21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT",
        25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE", 28: "SQLITE_WARNING",
        100: "SQLITE_ROW", 101: "SQLITE_DONE",
    ]

    private static let extendedNames: [Int32: String] = [
        275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK",
        787: "SQLITE_CONSTRAINT_FOREIGNKEY", 1043: "SQLITE_CONSTRAINT_FUNCTION",
        1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE",
        2323: "SQLITE_CONSTRAINT_VTAB", 2579: "SQLITE_CONSTRAINT_ROWID",
        3091: "SQLITE_CONSTRAINT_DATATYPE",
        261: "SQLITE_BUSY_RECOVERY", 517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT",
        264: "SQLITE_READONLY_RECOVERY", 520: "SQLITE_READONLY_CANTLOCK", 776: "SQLITE_READONLY_ROLLBACK",
        1032: "SQLITE_READONLY_DBMOVED", 1288: "SQLITE_READONLY_CANTINIT", 1544: "SQLITE_READONLY_DIRECTORY",
        266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
        1034: "SQLITE_IOERR_FSYNC", 1290: "SQLITE_IOERR_DIR_FSYNC", 1546: "SQLITE_IOERR_TRUNCATE",
        3338: "SQLITE_IOERR_SHMOPEN", 4874: "SQLITE_IOERR_SHMSIZE",
        267: "SQLITE_CORRUPT_VTAB", 523: "SQLITE_CORRUPT_SEQUENCE", 779: "SQLITE_CORRUPT_INDEX",
        270: "SQLITE_CANTOPEN_NOTEMPDIR", 526: "SQLITE_CANTOPEN_ISDIR", 782: "SQLITE_CANTOPEN_FULLPATH",
        513: "SQLITE_ERROR_RETRY", 257: "SQLITE_ERROR_MISSING_COLLSEQ", 769: "SQLITE_ERROR_SNAPSHOT",
    ]
}
