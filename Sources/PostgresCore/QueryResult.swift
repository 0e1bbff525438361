import LibPQ

/// The rows a statement returned, in PostgreSQL's text format, held in memory by libpq until
/// the result is released.
///
/// Read rows by index (`result[0]`) or iterate them; read each column with
/// ``Row/get(_:at:)`` as a ``PostgresDecodable`` type, `Optional` for nullable columns.
public final class QueryResult: RandomAccessCollection {
    let handle: OpaquePointer
    let pq: LibPQTable
    /// The SQL that produced the result.
    public let sql: String
    /// The number of rows, read once: a result never changes.
    public let endIndex: Int

    init(handle: OpaquePointer, sql: String, pq: LibPQTable) {
        self.handle = handle
        self.sql = sql
        self.pq = pq
        endIndex = Int(pq.PQntuples(handle))
    }

    deinit { pq.PQclear(handle) }

    /// The index of the first row: 0.
    public var startIndex: Int { 0 }

    /// The result's cells, read by row and column without a ``Row`` value per read: for loops
    /// over many rows. Valid only while this result is alive; keep a reference to it.
    public var cells: ResultCells {
        ResultCells(handle: handle, rowCount: endIndex, getIsNull: pq.PQgetisnull, getValue: pq.PQgetvalue, getLength: pq.PQgetlength)
    }
    /// The row at `position`.
    public subscript(position: Int) -> Row { Row(result: self, index: Int32(position)) }

    /// The number of columns in each row.
    public var columnCount: Int { Int(pq.PQnfields(handle)) }

    /// The name of column `index`.
    public func columnName(at index: Int) -> String {
        pq.PQfname(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The index of the column called `name`, or nil.
    public func columnIndex(named name: String) -> Int? {
        let index = Int(pq.PQfnumber(handle, "\"" + name.replacingAll("\"", with: "\"\"") + "\""))
        return index < 0 ? nil : index
    }

    /// The command tag the server sent, such as `INSERT 0 1` or `COPY 100000`.
    public var commandTag: String { pq.PQcmdStatus(handle).map { String(cString: $0) } ?? "" }

    /// The number of rows an INSERT, UPDATE, DELETE, MERGE, SELECT, MOVE, FETCH or COPY
    /// affected (PQcmdTuples), or 0 for other commands.
    public var affectedRowCount: Int { pq.PQcmdTuples(handle).flatMap { Int(String(cString: $0)) } ?? 0 }

    /// The single value of a one-row, one-column result (`SELECT count(*) ...`).
    public func scalar<T: PostgresDecodable>(_ type: T.Type = T.self) throws -> T {
        guard count == 1, columnCount == 1 else {
            throw PostgresError(kind: .unexpectedValue,
                                message: "expected one row of one column, found \(count) rows of \(columnCount) columns", sql: sql)
        }
        return try self[0].get(type, at: 0)
    }
}

/// The cells of a ``QueryResult``, read in place by row and column: libpq's own calls on its
/// result, with no ``Row`` value, no reference counting and no `String` per read, so decoding a
/// million rows costs what the same loop written against libpq costs (BENCHMARKS.md, W2 on
/// PostgreSQL). A plain value that does not keep its result alive: use it only while the
/// ``QueryResult`` it came from (``QueryResult/cells``) is.
public struct ResultCells {
    @usableFromInline let handle: OpaquePointer
    /// The number of rows.
    public let rowCount: Int
    @usableFromInline let getIsNull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    @usableFromInline let getValue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    @usableFromInline let getLength: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32

    init(handle: OpaquePointer, rowCount: Int,
         getIsNull: @escaping @convention(c) (OpaquePointer?, Int32, Int32) -> Int32,
         getValue: @escaping @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?,
         getLength: @escaping @convention(c) (OpaquePointer?, Int32, Int32) -> Int32) {
        self.handle = handle
        self.rowCount = rowCount
        self.getIsNull = getIsNull
        self.getValue = getValue
        self.getLength = getLength
    }

    /// True when the cell is NULL, or outside the result (libpq's answer for a bad position).
    @inlinable @inline(__always)
    public func isNull(row: Int, column: Int) -> Bool {
        getIsNull(handle, Int32(clamping: row), Int32(clamping: column)) != 0
    }

    /// The cell's text as UTF-8 bytes inside libpq's result (no copy), nil for NULL or a
    /// position outside the result. The bytes live as long as the result.
    ///
    /// Always inlined: a row loop reads several cells a row, and a call per cell (saving four
    /// registers, clamping again) was measurable in W2 on PostgreSQL (BENCHMARKS.md, "Issue 21:
    /// W2 on PostgreSQL").
    @inlinable @inline(__always)
    public func bytes(row: Int, column: Int) -> UnsafeBufferPointer<UInt8>? {
        let row = Int32(clamping: row), column = Int32(clamping: column)
        // libpq gives NULL (and a position outside the result) a length of 0: only an empty
        // cell needs asking whether it is NULL, one call fewer per cell than asking first.
        let count = getLength(handle, row, column)
        if count == 0, getIsNull(handle, row, column) != 0 { return nil }
        guard let value = getValue(handle, row, column) else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: Int(count))
    }

    /// The cell as a decimal integer, parsed in place; nil for NULL or other text.
    @inlinable
    public func integer(row: Int, column: Int) -> Int? {
        bytes(row: row, column: column).flatMap(ResultCells.decimalInteger)
    }

    /// `bytes` read as a decimal integer with an optional leading `-` (PostgreSQL's text for
    /// `smallint`, `integer` and `bigint`); nil for anything else or a value beyond `Int`.
    @inlinable
    public static func decimalInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var index = 0, negative = false
        if bytes[0] == UInt8(ascii: "-") { negative = true; index = 1 }
        guard index < bytes.count else { return nil }
        // Up to 18 digits cannot pass Int.max (19 digits): no overflow check per digit, which
        // is every quantity and flag a W2 row reads. Longer text takes the checked loop.
        if bytes.count - index <= 18 {
            var value = 0
            while index < bytes.count {
                let digit = UInt(bytes[index]) &- UInt(UInt8(ascii: "0"))
                guard digit <= 9 else { return nil }
                value = value &* 10 &+ Int(digit)
                index += 1
            }
            return negative ? -value : value
        }
        var value = 0
        while index < bytes.count {
            let digit = Int(bytes[index]) &- Int(UInt8(ascii: "0"))
            guard digit >= 0, digit <= 9 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }
}

/// One row of a ``QueryResult``. It keeps its result alive.
public struct Row {
    let result: QueryResult
    let index: Int32

    /// True when column `column` is NULL.
    public func isNull(at column: Int) -> Bool {
        result.pq.PQgetisnull(result.handle, index, Int32(column)) != 0
    }

    /// Column `column`'s text, or nil for NULL.
    public func text(at column: Int) -> String? {
        guard !isNull(at: column), let value = result.pq.PQgetvalue(result.handle, index, Int32(column)) else { return nil }
        return String(cString: value)
    }

    /// Calls `body` with column `column`'s text as UTF-8 bytes, read in place from libpq's
    /// result (valid only during the call); nil for NULL. No `String` is built.
    public func withBytes<T>(at column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        try withExtendedLifetime(result) {
            guard let bytes = result.cells.bytes(row: Int(index), column: column) else { return nil }
            return try body(bytes)
        }
    }

    /// Column `column` as a decimal integer, parsed in place; nil for NULL or other text.
    public func integer(at column: Int) -> Int? {
        withBytes(at: column, ResultCells.decimalInteger) ?? nil
    }

    /// Column `column` read as `type`; use an `Optional` type for a nullable column.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/unexpectedValue`` naming the
    ///   column, for NULL read as a non-optional type or text the type cannot read.
    public func get<T: PostgresDecodable>(_ type: T.Type = T.self, at column: Int) throws -> T {
        guard column >= 0, column < result.columnCount else {
            throw PostgresError(kind: .unexpectedValue,
                                message: "no column \(column): the result has \(result.columnCount)", sql: result.sql)
        }
        do {
            return try T.decode(postgresText: text(at: column))
        } catch let error as PostgresError {
            throw PostgresError(kind: error.kind, message: "column \(column) (\(result.columnName(at: column))): \(error.message)",
                                sql: result.sql)
        }
    }

    /// The column called `name` read as `type`.
    public func get<T: PostgresDecodable>(_ type: T.Type = T.self, named name: String) throws -> T {
        guard let column = result.columnIndex(named: name) else {
            throw PostgresError(kind: .unexpectedValue, message: "no column named \(name)", sql: result.sql)
        }
        return try get(type, at: column)
    }
}
