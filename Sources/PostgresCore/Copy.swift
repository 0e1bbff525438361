import LibPQ

extension Connection {
    /// Runs `COPY table (columns) FROM STDIN` and streams the rows `body` writes to the server:
    /// the fast way to load many rows (no statement per row, no round trip per row).
    ///
    /// ```swift
    /// let count = try connection.copyIn("COPY items (id, name) FROM STDIN") { writer in
    ///     for item in items { try writer.writeRow([item.id, item.name]) }
    /// }
    /// ```
    ///
    /// The rows are checked by the server as they arrive: a row that breaks a constraint fails
    /// the whole COPY, which then loads nothing. When `body` throws, the COPY is abandoned and
    /// loads nothing either.
    ///
    /// - Parameter sql: a `COPY ... FROM STDIN` statement in the default text format.
    /// - Returns: the number of rows the server loaded.
    @discardableResult
    public func copyIn(_ sql: String, _ body: (CopyWriter) throws -> Void) throws -> Int {
        let start = try check(pq.PQexec(handle, sql), sql: sql, accepting: [PGRES_COPY_IN.rawValue])
        guard pq.PQresultStatus(start.handle) == PGRES_COPY_IN else {
            throw PostgresError(kind: .other, message: "copyIn needs a COPY ... FROM STDIN statement", sql: sql)
        }
        let writer = CopyWriter(connection: self, sql: sql)
        do {
            try body(writer)
            try writer.flush()
        } catch {
            _ = pq.PQputCopyEnd(handle, "the client stopped the copy")
            while let result = pq.PQgetResult(handle) { pq.PQclear(result) }
            throw error
        }
        guard pq.PQputCopyEnd(handle, nil) == 1 else {
            throw PostgresError(result: nil, connection: self, sql: sql)
        }
        let finished = try check(pq.PQgetResult(handle), sql: sql)
        while let result = pq.PQgetResult(handle) { pq.PQclear(result) }
        return finished.affectedRowCount
    }
}

/// Writes rows into a running `COPY ... FROM STDIN` in PostgreSQL's text format, buffering them
/// into large messages. Obtain one from ``Connection/copyIn(_:_:)``.
///
/// The rows are encoded straight into one buffer of raw memory and sent a quarter of a
/// megabyte at a time: a field is copied byte by byte with its escapes, with no `Array` append
/// (and its exclusivity and capacity checks) per byte, which made encoding 40% of
/// `stockroom copy`'s instructions (BENCHMARKS.md, `copy` into PostgreSQL).
public final class CopyWriter {
    private unowned let connection: Connection
    private let sql: String
    /// The rows written and not yet sent: `count` bytes of `capacity`.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// Sent once this much is buffered at the end of a row.
    private let flushThreshold = 1 << 18
    /// The number of rows written so far.
    public private(set) var rowCount = 0
    private var fieldsInRow = 0

    init(connection: Connection, sql: String) {
        self.connection = connection
        self.sql = sql
        capacity = flushThreshold + (1 << 14)
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Writes one row: one field per column of the COPY, nil for NULL. Tabs, line breaks and
    /// backslashes inside values are escaped.
    public func writeRow(_ fields: [String?]) throws {
        for field in fields {
            if var field {
                field.withUTF8 { writeField($0) }
            } else {
                writeNullField()
            }
        }
        try endRow()
    }

    /// Room for `extra` more bytes at the end of the buffer.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    private func grow(toHold needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// Appends one field to the row being written, escaping tabs, line breaks and backslashes:
    /// for writers that hold their values as bytes. ``endRow()`` finishes the row.
    public func writeField(_ bytes: UnsafeBufferPointer<UInt8>) {
        // A separator, and at most two bytes for each byte of the value.
        reserve(1 + 2 * bytes.count)
        var out = storage + count
        if fieldsInRow > 0 { out.pointee = 0x09; out += 1 }
        fieldsInRow += 1
        guard let base = bytes.baseAddress else {
            count = out - storage
            return
        }
        // Runs of bytes that need no escape are copied whole; eight bytes are checked at a time.
        var runStart = 0, index = 0
        @inline(__always) func escapeIfNeeded(_ position: Int) {
            let escaped: UInt8
            switch base[position] {
            case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
            case 0x0A: escaped = UInt8(ascii: "n")
            case 0x0D: escaped = UInt8(ascii: "r")
            case 0x09: escaped = UInt8(ascii: "t")
            default: return
            }
            out.update(from: base + runStart, count: position - runStart)
            out += position - runStart
            out[0] = UInt8(ascii: "\\")
            out[1] = escaped
            out += 2
            runStart = position + 1
        }
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if CopyWriter.mayNeedEscape(word) {
                for position in index..<index + 8 { escapeIfNeeded(position) }
            }
            index += 8
        }
        while index < bytes.count {
            escapeIfNeeded(index)
            index += 1
        }
        out.update(from: base + runStart, count: bytes.count - runStart)
        out += bytes.count - runStart
        count = out - storage
    }

    /// True when one of the eight bytes in `word` may need an escape: a backslash, or a byte
    /// below 0x0E (tab, line feed and carriage return are among them). Word-at-a-time tests
    /// for a zero byte and a byte below a bound; never false for a word that needs one.
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below0E = (word &- ones &* 0x0E) & ~word & highs
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let backslash = (backslashes &- ones) & ~backslashes & highs
        return below0E | backslash != 0
    }

    /// Appends an integer field in decimal to the row being written, without making a `String`.
    public func writeField(_ value: Int) {
        // A separator, a sign and up to 19 digits.
        reserve(21)
        var out = storage + count
        if fieldsInRow > 0 { out.pointee = 0x09; out += 1 }
        fieldsInRow += 1
        if value < 0 { out.pointee = UInt8(ascii: "-"); out += 1 }
        // The magnitude as unsigned, so Int.min has one too.
        var rest = value.magnitude
        var digits = 1
        while rest >= 10 { rest /= 10; digits += 1 }
        rest = value.magnitude
        for position in stride(from: digits - 1, through: 0, by: -1) {
            out[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count = out + digits - storage
    }

    /// Appends a NULL field to the row being written.
    public func writeNullField() {
        reserve(3)
        var out = storage + count
        if fieldsInRow > 0 { out.pointee = 0x09; out += 1 }
        fieldsInRow += 1
        out[0] = UInt8(ascii: "\\")
        out[1] = UInt8(ascii: "N")
        count = out + 2 - storage
    }

    /// Finishes the row the fields since the last row belong to.
    public func endRow() throws {
        reserve(1)
        storage[count] = 0x0A
        count += 1
        fieldsInRow = 0
        rowCount += 1
        if count >= flushThreshold { try flush() }
    }

    /// Writes one row of parameter values (their text forms), nil for NULL.
    public func writeRow(_ fields: any PostgresParameter...) throws {
        try writeRow(fields.map(\.postgresText))
    }

    /// Sends what is buffered to the server.
    func flush() throws {
        guard count > 0 else { return }
        let sent = storage.withMemoryRebound(to: CChar.self, capacity: count) {
            connection.pq.PQputCopyData(connection.handle, $0, Int32(count))
        }
        guard sent == 1 else { throw PostgresError(result: nil, connection: connection, sql: sql) }
        count = 0
    }
}
