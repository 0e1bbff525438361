import CSQLite

/// `printf()` and `format()` for untrusted queries, refusing with `SQLITE_TOOBIG` any width
/// or precision larger than the connection's maximum value length.
///
/// SQLite's own `printf('%.*c', 2000000000, 'x')` appends one character at a time, two
/// billion times, inside one function call, so neither the progress handler (``ExecutionTimeLimit``)
/// nor `SQLITE_LIMIT_LENGTH` stops it: it runs for seconds and then returns NULL without an
/// error. Any width or precision past the limit would build a value past it, so this version
/// refuses the call before any work and otherwise runs SQLite's own `printf` on a private
/// in-memory connection with the same limit, turning its silent NULL into `SQLITE_TOOBIG`.
final class BoundedPrintf {
    private let limit: Int64
    private let helper: OpaquePointer
    private var statements: [Int32: OpaquePointer] = [:]

    private init(limit: Int32, helper: OpaquePointer) {
        self.limit = Int64(limit)
        self.helper = helper
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(helper)
    }

    /// Replaces `printf` and `format` on `connection`; they stay innocuous, so views may call them.
    static func install(on connection: OpaquePointer, limit: Int32) throws {
        var helper: OpaquePointer?
        let code = sqlite3_open_v2(":memory:", &helper, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let helper else {
            sqlite3_close_v2(helper)
            throw SQLiteError(connection: nil, code: code)
        }
        sqlite3_limit(helper, SQLITE_LIMIT_LENGTH, limit)
        let printf = BoundedPrintf(limit: limit, helper: helper)
        for name in ["printf", "format"] {
            let context = Unmanaged.passRetained(printf).toOpaque()
            let code = sqlite3_create_function_v2(
                connection, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, context,
                { context, count, arguments in
                    guard let context, let instance = sqlite3_user_data(context) else { return }
                    Unmanaged<BoundedPrintf>.fromOpaque(instance).takeUnretainedValue()
                        .call(context, Int(count), arguments)
                }, nil, nil,
                { instance in
                    if let instance { Unmanaged<BoundedPrintf>.fromOpaque(instance).release() }
                })
            guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code) }
        }
    }

    private func call(_ context: OpaquePointer, _ count: Int, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard count > 0, let arguments, let format = sqlite3_value_text(arguments[0]) else {
            sqlite3_result_null(context)
            return
        }
        let values = (1..<count).map { arguments[$0] }
        guard largestField(in: format, values: values) <= limit else {
            sqlite3_result_error_toobig(context)
            return
        }
        guard let statement = statement(forArguments: Int32(count)) else {
            sqlite3_result_error(context, sqlite3_errmsg(helper), -1)
            return
        }
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        for index in 0..<count { sqlite3_bind_value(statement, Int32(index + 1), arguments[index]) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW else {
            if code & 0xFF == SQLITE_TOOBIG { sqlite3_result_error_toobig(context) } else { sqlite3_result_error(context, sqlite3_errmsg(helper), -1) }
            return
        }
        // With a format, SQLite's printf returns NULL only when the text outgrew the limit.
        guard sqlite3_column_type(statement, 0) != SQLITE_NULL else {
            sqlite3_result_error_toobig(context)
            return
        }
        sqlite3_result_value(context, sqlite3_column_value(statement, 0))
    }

    private func statement(forArguments count: Int32) -> OpaquePointer? {
        if let cached = statements[count] { return cached }
        let sql = "SELECT printf(" + (1...count).map { "?\($0)" }.joined(separator: ", ") + ")"
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(helper, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        statements[count] = statement
        return statement
    }

    /// The largest width or precision the format asks for, `*` read from the arguments as
    /// SQLite's printf reads them.
    private func largestField(in format: UnsafePointer<UInt8>, values: [OpaquePointer?]) -> Int64 {
        var largest: Int64 = 0
        var next = 0
        var index = 0
        func byte(_ offset: Int) -> UInt8 { format[offset] }
        func starValue() -> Int64 {
            defer { next += 1 }
            guard next < values.count else { return 0 }
            let value = sqlite3_value_int64(values[next])
            return value == .min ? .max : abs(value)
        }
        while byte(index) != 0 {
            guard byte(index) == UInt8(ascii: "%") else { index += 1; continue }
            index += 1
            if byte(index) == UInt8(ascii: "%") { index += 1; continue }
            while let flag = Optional(byte(index)), "-+ #0,!".utf8.contains(flag) { index += 1 }
            for isPrecision in [false, true] {
                if isPrecision {
                    guard byte(index) == UInt8(ascii: ".") else { break }
                    index += 1
                }
                if byte(index) == UInt8(ascii: "*") {
                    largest = max(largest, starValue())
                    index += 1
                } else {
                    var number: Int64 = 0
                    while byte(index) >= UInt8(ascii: "0") && byte(index) <= UInt8(ascii: "9") {
                        number = min(Int64.max / 20, number * 10 + Int64(byte(index) - UInt8(ascii: "0")))
                        index += 1
                    }
                    largest = max(largest, number)
                }
            }
            // The conversion (and a length modifier before it) consumes one argument, if any,
            // except `%` (also after flags or a width: `%5%`) and `n`, which SQL's printf ignores.
            // Counting one for them would read a later `*` from the wrong argument, letting
            // `printf('%n%.*c', 2000000000, 'x')` through (found while writing the fuzz target).
            while byte(index) == UInt8(ascii: "l") { index += 1 }
            let conversion = byte(index)
            if conversion != 0 {
                index += 1
                if conversion != UInt8(ascii: "%") && conversion != UInt8(ascii: "n") { next += 1 }
            }
        }
        return largest
    }
}
