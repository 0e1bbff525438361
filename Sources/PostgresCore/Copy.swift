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
public final class CopyWriter {
    private unowned let connection: Connection
    private let sql: String
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16
    /// The number of rows written so far.
    public private(set) var rowCount = 0
    private var fieldsInRow = 0

    init(connection: Connection, sql: String) {
        self.connection = connection
        self.sql = sql
        buffer.reserveCapacity(flushThreshold + 4096)
    }

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

    /// Appends one field to the row being written, escaping tabs, line breaks and backslashes:
    /// for writers that hold their values as bytes. ``endRow()`` finishes the row.
    public func writeField(_ bytes: UnsafeBufferPointer<UInt8>) {
        separateField()
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "\\"))
            case 0x0A: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "n"))
            case 0x0D: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "r"))
            case 0x09: buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "t"))
            default: buffer.append(byte)
            }
        }
    }

    /// Appends a NULL field to the row being written.
    public func writeNullField() {
        separateField()
        buffer.append(UInt8(ascii: "\\")); buffer.append(UInt8(ascii: "N"))
    }

    /// Finishes the row the fields since the last row belong to.
    public func endRow() throws {
        buffer.append(0x0A)
        fieldsInRow = 0
        rowCount += 1
        if buffer.count >= flushThreshold { try flush() }
    }

    private func separateField() {
        if fieldsInRow > 0 { buffer.append(0x09) }
        fieldsInRow += 1
    }

    /// Writes one row of parameter values (their text forms), nil for NULL.
    public func writeRow(_ fields: any PostgresParameter...) throws {
        try writeRow(fields.map(\.postgresText))
    }

    /// Sends what is buffered to the server.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        let sent = buffer.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                connection.pq.PQputCopyData(connection.handle, $0, Int32(bytes.count))
            }
        }
        guard sent == 1 else { throw PostgresError(result: nil, connection: connection, sql: sql) }
        buffer.removeAll(keepingCapacity: true)
    }
}
