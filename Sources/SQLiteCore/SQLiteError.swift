import CSQLite

/// An error reported by SQLite, carrying everything needed to understand it without a debugger:
/// the extended result code, SQLite's own message, and the SQL and arguments that were running.
public struct SQLiteError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
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
    /// The file of the connection that failed, when known, so a message can say what could not
    /// be read or written.
    public let databasePath: String?

    /// Creates an error from its parts.
    public init(
        extendedCode: Int32,
        message: String,
        sql: String? = nil,
        expandedSQL: String? = nil,
        isCommitOutcomeUnknown: Bool = false,
        databasePath: String? = nil
    ) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.expandedSQL = expandedSQL
        self.isCommitOutcomeUnknown = isCommitOutcomeUnknown
        self.databasePath = databasePath
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
        let file = connection.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }
        self.init(extendedCode: resolved, message: text, sql: sql, expandedSQL: expandedSQL,
                  databasePath: file?.isEmpty == false ? file : nil)
    }

    /// The primary result code (the low byte of the extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { extendedCode & 0xFF }

    /// The primary result code as a ``SQLiteResultCode`` (nil only for a code SQLite never returns).
    public var primaryResult: SQLiteResultCode? { SQLiteResultCode(rawValue: primaryCode) }

    /// A `write()` failed (`SQLITE_IOERR_WRITE`): an I/O error, or the file-size limit
    /// (`ulimit -f`) was reached.
    public var isFailedWrite: Bool { extendedCode == SQLITE_IOERR | 3 << 8 }

    /// The disk or the file system quota is full (`SQLITE_FULL`): SQLite could not write.
    public var isDiskFull: Bool { primaryResult == .full }

    /// SQLite's symbolic name for the extended code, such as `SQLITE_BUSY` or `SQLITE_CONSTRAINT_CHECK`.
    public var codeName: String { SQLiteResultCodeNames.name(for: extendedCode) }

    /// The database stayed locked by another connection past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// A constraint (CHECK, NOT NULL, UNIQUE, PRIMARY KEY, FOREIGN KEY) refused the write.
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// A PRIMARY KEY refused a second row with the same key (`SQLITE_CONSTRAINT_PRIMARYKEY`).
    public var isPrimaryKeyViolation: Bool { extendedCode == SQLITE_CONSTRAINT | 6 << 8 }

    /// The file is not usable as a database: not SQLite, corrupt, unreadable or unwritable.
    public var isFileProblem: Bool {
        [SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_READONLY,
         SQLITE_FULL, SQLITE_PERM, SQLITE_AUTH, SQLITE_NOLFS].contains(primaryCode)
    }

    /// The statement was stopped by `sqlite3_interrupt` (for example a query time limit).
    public var isInterrupted: Bool { primaryCode == SQLITE_INTERRUPT }

    /// One line for users and logs: code, message, and the SQL that failed as it was written,
    /// with placeholders, never the values bound to them (those may be personal data, such as
    /// a name).
    public var description: String {
        describe(sql)
    }

    /// As ``description`` but with the bound values spelled out (``expandedSQL``), for
    /// debugging only: never show it to users or write it to logs.
    public var debugDescription: String {
        describe(expandedSQL ?? sql)
    }

    private func describe(_ statement: String?) -> String {
        var text = "\(codeName) (\(extendedCode)): \(message)"
        if isCommitOutcomeUnknown {
            text += "; the commit's outcome is unknown, the write may or may not have been saved"
        }
        if let statement {
            text += " — in `\(SQLiteError.oneLine(statement))`"
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
        return SQLiteResultCode(rawValue: code & 0xFF)?.name ?? "SQLITE_ERROR_\(code)"
    }

    /// Extended codes are a primary code with a detail number in the second byte.
    private static let extendedNames: [Int32: String] = [
        SQLITE_CONSTRAINT | 1 << 8: "SQLITE_CONSTRAINT_CHECK", SQLITE_CONSTRAINT | 2 << 8: "SQLITE_CONSTRAINT_COMMITHOOK",
        SQLITE_CONSTRAINT | 3 << 8: "SQLITE_CONSTRAINT_FOREIGNKEY", SQLITE_CONSTRAINT | 4 << 8: "SQLITE_CONSTRAINT_FUNCTION",
        SQLITE_CONSTRAINT | 5 << 8: "SQLITE_CONSTRAINT_NOTNULL", SQLITE_CONSTRAINT | 6 << 8: "SQLITE_CONSTRAINT_PRIMARYKEY",
        SQLITE_CONSTRAINT | 7 << 8: "SQLITE_CONSTRAINT_TRIGGER", SQLITE_CONSTRAINT | 8 << 8: "SQLITE_CONSTRAINT_UNIQUE",
        SQLITE_CONSTRAINT | 9 << 8: "SQLITE_CONSTRAINT_VTAB", SQLITE_CONSTRAINT | 10 << 8: "SQLITE_CONSTRAINT_ROWID",
        SQLITE_CONSTRAINT | 12 << 8: "SQLITE_CONSTRAINT_DATATYPE",
        SQLITE_BUSY | 1 << 8: "SQLITE_BUSY_RECOVERY", SQLITE_BUSY | 2 << 8: "SQLITE_BUSY_SNAPSHOT", SQLITE_BUSY | 3 << 8: "SQLITE_BUSY_TIMEOUT",
        SQLITE_READONLY | 1 << 8: "SQLITE_READONLY_RECOVERY", SQLITE_READONLY | 2 << 8: "SQLITE_READONLY_CANTLOCK", SQLITE_READONLY | 3 << 8: "SQLITE_READONLY_ROLLBACK",
        SQLITE_READONLY | 4 << 8: "SQLITE_READONLY_DBMOVED", SQLITE_READONLY | 5 << 8: "SQLITE_READONLY_CANTINIT", SQLITE_READONLY | 6 << 8: "SQLITE_READONLY_DIRECTORY",
        SQLITE_IOERR | 1 << 8: "SQLITE_IOERR_READ", SQLITE_IOERR | 2 << 8: "SQLITE_IOERR_SHORT_READ", SQLITE_IOERR | 3 << 8: "SQLITE_IOERR_WRITE",
        SQLITE_IOERR | 4 << 8: "SQLITE_IOERR_FSYNC", SQLITE_IOERR | 5 << 8: "SQLITE_IOERR_DIR_FSYNC", SQLITE_IOERR | 6 << 8: "SQLITE_IOERR_TRUNCATE",
        SQLITE_IOERR | 13 << 8: "SQLITE_IOERR_SHMOPEN", SQLITE_IOERR | 19 << 8: "SQLITE_IOERR_SHMSIZE",
        SQLITE_CORRUPT | 1 << 8: "SQLITE_CORRUPT_VTAB", SQLITE_CORRUPT | 2 << 8: "SQLITE_CORRUPT_SEQUENCE", SQLITE_CORRUPT | 3 << 8: "SQLITE_CORRUPT_INDEX",
        SQLITE_CANTOPEN | 1 << 8: "SQLITE_CANTOPEN_NOTEMPDIR", SQLITE_CANTOPEN | 2 << 8: "SQLITE_CANTOPEN_ISDIR", SQLITE_CANTOPEN | 3 << 8: "SQLITE_CANTOPEN_FULLPATH",
        SQLITE_ERROR | 2 << 8: "SQLITE_ERROR_RETRY", SQLITE_ERROR | 1 << 8: "SQLITE_ERROR_MISSING_COLLSEQ", SQLITE_ERROR | 3 << 8: "SQLITE_ERROR_SNAPSHOT",
    ]
}
