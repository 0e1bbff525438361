import CSQLite
import FoundationEssentials
import Glibc

/// A prepared statement: compiled once, then bound, stepped and reset many times.
///
/// Parameters and columns are addressed by zero-based index on the Swift side (`bind(_:at: 0)`
/// binds `?1`), matching how columns are read. Obtain one from ``Database/prepare(_:)`` or,
/// for statements run repeatedly, ``Database/cachedStatement(_:)``.
public final class Statement {
    /// The SQL this statement was compiled from.
    public let sql: String
    // @usableFromInline so the per-row accessors below can be @inlinable: repositories in other
    // modules call them once per column per row, and an opaque call (a generic one for
    // withText) per column cost a fifth of a million-row read.
    @usableFromInline let handle: OpaquePointer
    unowned let database: Database

    convenience init(database: Database, sql: String) throws {
        // The tail pointer points into the C string, so it must stay alive while it is read.
        let (code, compiled, remainder): (Int32, OpaquePointer?, String) = sql.withCString { text in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(database.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            return (code, statement, tail.map { String(cString: $0) } ?? "")
        }
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: database.handle, code: code, sql: sql)
        }
        guard let compiled else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
        }
        if !Statement.isBlank(remainder) {
            sqlite3_finalize(compiled)
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE,
                message: "only one statement may be run at a time; found more after the first",
                sql: sql)
        }
        self.init(unchecked: database, sql: sql, handle: compiled)
    }

    init(unchecked database: Database, sql: String, handle: OpaquePointer) {
        self.sql = sql
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// True when SQLite reports that the statement makes no direct change to the database file.
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The number of `?` parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The number of columns in each result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a result column.
    public func columnName(at index: Int) -> String {
        guard let name = sqlite3_column_name(handle, Int32(index)) else { return "" }
        return String(cString: name)
    }

    // MARK: Binding

    /// Binds text to parameter `index` (zero-based).
    @inlinable @inline(__always)
    public func bind(_ value: String, at index: Int) throws {
        var value = value
        try value.withUTF8 { bytes in try bindText(bytes, at: index) }
    }

    /// Binds raw UTF-8 bytes as text to parameter `index` (zero-based); the bytes are copied.
    @inlinable @inline(__always)
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        let code: Int32
        if let base = bytes.baseAddress, bytes.count > 0 {
            code = sqlite3_bind_text(handle, Int32(index + 1), UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                     Int32(bytes.count), csqlite_transient())
        } else {
            code = sqlite3_bind_text(handle, Int32(index + 1), "", 0, csqlite_transient())
        }
        try check(code)
    }

    /// Binds compile-time constant text (a tag, say) to parameter `index` without copying it.
    @inlinable @inline(__always)
    public func bindStatic(_ value: StaticString, at index: Int) throws {
        let pointer = UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self)
        try check(sqlite3_bind_text(handle, Int32(index + 1), pointer, Int32(value.utf8CodeUnitCount), csqlite_static()))
    }

    /// Binds an integer to parameter `index` (zero-based).
    @inlinable @inline(__always)
    public func bind(_ value: Int, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index + 1), sqlite3_int64(value)))
    }

    /// Binds a real number to parameter `index` (zero-based).
    public func bind(_ value: Double, at index: Int) throws {
        try check(sqlite3_bind_double(handle, Int32(index + 1), value))
    }

    /// Binds a blob to parameter `index` (zero-based).
    public func bind(_ value: [UInt8], at index: Int) throws {
        let code = value.withUnsafeBytes { bytes in
            sqlite3_bind_blob(handle, Int32(index + 1), bytes.baseAddress, Int32(bytes.count), csqlite_transient())
        }
        try check(code)
    }

    /// Binds SQL NULL to parameter `index` (zero-based).
    @inlinable @inline(__always)
    public func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(handle, Int32(index + 1)))
    }

    /// Binds optional text, NULL when absent.
    @inlinable @inline(__always)
    public func bind(_ value: String?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds an optional integer, NULL when absent.
    @inlinable @inline(__always)
    public func bind(_ value: Int?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds a dynamically typed value.
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try check(sqlite3_bind_int64(handle, Int32(index + 1), integer))
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    /// Binds every value in order, starting at the first parameter.
    public func bind(_ values: [SQLiteValue]) throws {
        for (index, value) in values.enumerated() { try bind(value, at: index) }
    }

    // MARK: Stepping

    /// Advances to the next row. Returns `true` when a row is available, `false` when done.
    @inlinable @inline(__always)
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw error(code: code)
    }

    /// Resets the statement so it can run again, and clears its bindings.
    ///
    /// Resetting also ends any read the statement holds, which matters in WAL mode: a statement
    /// left mid-result keeps a snapshot open and blocks checkpoints.
    @inlinable @inline(__always)
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Runs the statement to completion, discarding any rows.
    public func run() throws {
        while try step() {}
    }

    // MARK: Reading columns

    /// True when the column of the current row is SQL NULL.
    @inlinable @inline(__always)
    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The column's integer value (0 for NULL).
    @inlinable @inline(__always)
    public func int(at index: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// The column's integer value, or nil for NULL.
    @inlinable @inline(__always)
    public func optionalInt(at index: Int) -> Int? {
        isNull(at: index) ? nil : int(at: index)
    }

    /// The column's real value.
    public func double(at index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The column's text ("" for NULL).
    @inlinable @inline(__always)
    public func text(at index: Int) -> String {
        withText(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's text, or nil for NULL.
    @inlinable @inline(__always)
    public func optionalText(at index: Int) -> String? {
        isNull(at: index) ? nil : text(at: index)
    }

    /// Calls `body` with the column's UTF-8 bytes, without copying them into a `String`.
    /// The buffer is only valid inside `body`.
    @inlinable @inline(__always)
    public func withText<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_text(handle, Int32(index))
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// The column's value with its storage class.
    public func value(at index: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, Int32(index)))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, Int32(index)))
        case SQLITE_TEXT: return .text(text(at: index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, Int32(index)))
            guard count > 0, let pointer = sqlite3_column_blob(handle, Int32(index)) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    // MARK: Errors

    @inlinable @inline(__always)
    func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw error(code: code) }
    }

    @usableFromInline
    func error(code: Int32) -> SQLiteError {
        // The expansion is only computed on failure, so the hot path never tracks its arguments.
        SQLiteError(connection: database.handle, code: code, sql: sql, expandedSQL: parameterCount > 0 ? expandedSQL : nil)
    }

    /// The SQL with its current bindings rendered as literals, for diagnostics.
    public var expandedSQL: String? {
        guard let expanded = sqlite3_expanded_sql(handle) else { return nil }
        defer { sqlite3_free(expanded) }
        return String(cString: expanded)
    }

    static func isBlank(_ sql: String) -> Bool {
        // A trailing comment or whitespace after the last statement is not a second statement.
        var remaining = Substring(sql)
        while true {
            remaining = remaining.drop(while: { $0.isWhitespace || $0 == ";" })
            if remaining.hasPrefix("--") {
                remaining = remaining.drop(while: { $0 != "\n" })
            } else if remaining.hasPrefix("/*") {
                guard let end = remaining.firstRange(of: "*/") else { return true }
                remaining = remaining[end.upperBound...]
            } else {
                return remaining.isEmpty
            }
        }
    }
}
