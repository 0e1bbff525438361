import CSQLite

/// Why ``Database/prepareReadOnlyQuery(_:)`` refused SQL before running any of it.
public enum QueryRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text holds no statement, only whitespace or comments.
    case noStatement
    /// The text holds more than one statement.
    case multipleStatements
    /// SQLite reports that the statement would write (`sqlite3_stmt_readonly` is false).
    case notReadOnly(sql: String)

    /// One line saying what was refused.
    public var description: String {
        switch self {
        case .noStatement:
            "no SQL statement was given"
        case .multipleStatements:
            "only one statement may be run at a time; found more after the first"
        case .notReadOnly(let sql):
            "the statement would change the database, and only read-only statements are allowed: `\(SQLiteError.oneLine(sql))`"
        }
    }
}

/// Bounds on what one untrusted query may take besides time (``ExecutionTimeLimit``): the
/// length of any one value, and the memory of the whole process.
public struct QueryResourceLimits: Sendable, Equatable {
    /// The longest string or blob, in bytes, any expression may build or any row may hold
    /// (`SQLITE_LIMIT_LENGTH`). One SQL function call runs to the end without calling the
    /// progress handler, so this is what stops `printf('%.*c', 2000000000, 'x')` or
    /// `hex(zeroblob(499000000))` at once with `SQLITE_TOOBIG` instead of building gigabytes.
    public var maximumValueLength: Int32
    /// The most heap SQLite may hold in this process, in bytes (`sqlite3_hard_heap_limit64`);
    /// past it an allocation fails and the statement stops with `SQLITE_NOMEM`. The limit is
    /// process-wide: use it in a process that runs one query, as `stockroom query` does.
    public var maximumMemory: Int64
    /// The page cache, in bytes (`PRAGMA cache_size`). Sorts, `GROUP BY`, `DISTINCT` and
    /// recursive queues larger than this spill to temporary files (`temp_store = FILE`).
    public var cacheSize: Int64

    /// 16 MiB values, 128 MiB of SQLite heap, a 16 MiB cache: with the program itself and a
    /// row's values copied out, `stockroom query` stays under 256 MB.
    public static let `default` = QueryResourceLimits(maximumValueLength: 16 << 20, maximumMemory: 128 << 20, cacheSize: 16 << 20)

    /// Creates limits.
    public init(maximumValueLength: Int32, maximumMemory: Int64, cacheSize: Int64) {
        self.maximumValueLength = maximumValueLength
        self.maximumMemory = maximumMemory
        self.cacheSize = cacheSize
    }
}

/// Functions an untrusted query may not call, whatever the connection's settings.
private let untrustedDeniedFunctions: Set<String> = ["fts3_tokenizer", "load_extension"]

extension Database {
    /// Locks the connection down for SQL typed by someone else, following sqlite.org's "Defense
    /// against dark arts": call it right after opening, before preparing any untrusted SQL.
    ///
    /// - defensive mode (`SQLITE_DBCONFIG_DEFENSIVE`): no `writable_schema`, no shadow-table writes;
    /// - `trusted_schema=OFF`: views and triggers in the file may only call innocuous functions,
    ///   so a crafted database file cannot run side effects through a query;
    /// - no extension loading, neither through the C API nor the `load_extension()` function;
    /// - the two-argument `fts3_tokenizer()` off (Debian's SQLite enables it; it accepts a raw
    ///   function pointer);
    /// - at most 0 attached databases: `sqlite3_stmt_readonly` reports `ATTACH` as read-only,
    ///   and `VACUUM INTO` attaches its target internally, so the limit is what stops them;
    /// - an authorizer that refuses, when the statement is compiled, `ATTACH`, `DETACH` and the
    ///   functions `fts3_tokenizer` and `load_extension`. SQLite still honours the two-argument
    ///   `fts3_tokenizer()` with the setting off when its pointer is a bound parameter, and here
    ///   the parameters come from the same untrusted user as the SQL. The authorizer replaces
    ///   any other on the connection.
    ///
    /// Pair it with ``Database/OpenMode/readOnly`` and ``prepareReadOnlyQuery(_:)``.
    ///
    /// - Throws: ``SQLiteError`` when SQLite does not confirm a setting.
    public func hardenForUntrustedQueries() throws {
        try configure(SQLITE_DBCONFIG_DEFENSIVE, to: true, name: "defensive mode")
        try configure(SQLITE_DBCONFIG_TRUSTED_SCHEMA, to: false, name: "trusted_schema")
        try configure(SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, to: false, name: "extension loading")
        try configure(SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, to: false, name: "fts3_tokenizer")
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
        guard sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, -1) == 0 else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "SQLite did not accept a limit of 0 attached databases")
        }
        let code = sqlite3_set_authorizer(handle, { _, action, _, functionName, _, _ in
            switch action {
            case SQLITE_ATTACH, SQLITE_DETACH:
                return SQLITE_DENY
            case SQLITE_FUNCTION:
                guard let functionName else { return SQLITE_OK }
                return untrustedDeniedFunctions.contains(String(cString: functionName).lowercased()) ? SQLITE_DENY : SQLITE_OK
            default:
                return SQLITE_OK
            }
        }, nil)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code) }
    }

    /// Applies `limits` to this connection, and its memory bound to the whole process: call it
    /// before preparing the query, as the value length also bounds the SQL text and its
    /// parameters.
    ///
    /// - Throws: ``SQLiteError`` when SQLite does not take a setting.
    public func limitResources(_ limits: QueryResourceLimits) throws {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, limits.maximumValueLength)
        guard sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1) == limits.maximumValueLength else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "SQLite did not accept a maximum value length of \(limits.maximumValueLength) bytes")
        }
        try BoundedPrintf.install(on: handle, limit: limits.maximumValueLength)
        // A negative cache_size is in KiB rather than pages.
        try execute("PRAGMA cache_size = -\(max(1, limits.cacheSize / 1024))")
        try execute("PRAGMA temp_store = FILE")
        sqlite3_hard_heap_limit64(limits.maximumMemory)
        // The soft limit makes SQLite give back cache pages before the hard limit fails a call.
        sqlite3_soft_heap_limit64(limits.maximumMemory / 2)
    }

    /// Compiles exactly one statement that SQLite itself reports as read-only.
    ///
    /// The decision is SQLite's (`sqlite3_stmt_readonly`), never a guess from the text, so
    /// `WITH … DELETE`, `VACUUM INTO`, `PRAGMA user_version = 1` and `CREATE TEMP TABLE` are
    /// all refused.
    ///
    /// - Throws: ``QueryRefusal`` when the text holds no statement, several, or one that
    ///   writes; ``SQLiteError`` when it does not compile (a syntax error, a missing table).
    public func prepareReadOnlyQuery(_ sql: String) throws -> Statement {
        guard !Statement.isBlank(sql) else { throw QueryRefusal.noStatement }
        let statement: Statement
        do {
            statement = try prepare(sql)
        } catch let error as SQLiteError where error.extendedCode == SQLITE_MISUSE {
            // The only misuse `prepare` reports is trailing statements after the first.
            throw QueryRefusal.multipleStatements
        } catch let error as SQLiteError where error.message.hasPrefix("unsafe use of virtual table") {
            // A trigger or view of the file uses a virtual table (Stockroom's own: the search
            // index's triggers on `items`), which trusted_schema=OFF refuses to compile. Whether
            // the statement writes is still SQLite's answer: compiled with the schema trusted,
            // never stepped, and finalized; only a read-only one would be reported as it failed.
            if try !compiledWithTrustedSchemaIsReadOnly(sql) { throw QueryRefusal.notReadOnly(sql: sql) }
            throw error
        }
        guard statement.isReadOnly else { throw QueryRefusal.notReadOnly(sql: sql) }
        return statement
    }

    /// Whether `sql`, compiled (not run) with `trusted_schema` on, is read-only.
    private func compiledWithTrustedSchemaIsReadOnly(_ sql: String) throws -> Bool {
        try configure(SQLITE_DBCONFIG_TRUSTED_SCHEMA, to: true, name: "trusted_schema")
        defer { try? configure(SQLITE_DBCONFIG_TRUSTED_SCHEMA, to: false, name: "trusted_schema") }
        return try prepare(sql).isReadOnly
    }

    private func configure(_ option: Int32, to enabled: Bool, name: String) throws {
        var result: Int32 = -1
        let code = csqlite_db_config_int(handle, option, enabled ? 1 : 0, &result)
        guard code == SQLITE_OK, result == (enabled ? 1 : 0) else {
            throw SQLiteError(extendedCode: code == SQLITE_OK ? SQLITE_MISUSE : code,
                              message: "SQLite did not confirm turning \(name) \(enabled ? "on" : "off")")
        }
    }
}
