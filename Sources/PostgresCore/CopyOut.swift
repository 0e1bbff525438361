import LibPQ

extension Connection {
    /// Runs `COPY ... TO STDOUT` in the default text format and hands each row to `body` as it
    /// arrives: one query, streamed, with no whole result held in the client and no row
    /// decoded into values the caller does not ask for.
    ///
    /// ```swift
    /// try connection.copyOut("COPY items (id, name) TO STDOUT") { row in
    ///     try row.forEachField { field in print(field.map { String(decoding: $0, as: UTF8.self) } ?? "NULL") }
    /// }
    /// ```
    ///
    /// When `body` throws, the rest of the rows are read and dropped (a COPY out cannot be
    /// stopped half-way without cancelling the statement), so the connection stays usable,
    /// and the error is rethrown.
    ///
    /// - Parameter sql: a `COPY ... TO STDOUT` statement in the text format.
    /// - Returns: the number of rows the server sent.
    @discardableResult
    public func copyOut(_ sql: String, _ body: (CopyTextRow) throws -> Void) throws -> Int {
        let start = try check(pq.PQexec(handle, sql), sql: sql, accepting: [PGRES_COPY_OUT.rawValue])
        guard pq.PQresultStatus(start.handle) == PGRES_COPY_OUT else {
            throw PostgresError(kind: .other, message: "copyOut needs a COPY ... TO STDOUT statement", sql: sql)
        }
        let scratch = CopyTextRow.Scratch()
        var failure: (any Error)?
        var rows = 0
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = pq.PQgetCopyData(handle, &buffer, 0)
            guard length > 0, let buffer else {
                if let buffer { pq.PQfreemem(buffer) }
                if length == -2 { throw PostgresError(result: nil, connection: self, sql: sql) }
                break
            }
            defer { pq.PQfreemem(buffer) }
            rows += 1
            guard failure == nil else { continue }
            let line = buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                UnsafeBufferPointer(start: $0, count: Int(length))
            }
            do {
                try body(CopyTextRow(line: line, scratch: scratch))
            } catch {
                failure = error
            }
        }
        _ = try check(pq.PQgetResult(handle), sql: sql)
        while let result = pq.PQgetResult(handle) { pq.PQclear(result) }
        if let failure { throw failure }
        return rows
    }
}

/// One row of a `COPY ... TO STDOUT` in PostgreSQL's text format, valid only inside the
/// ``Connection/copyOut(_:_:)`` call that gave it.
public struct CopyTextRow {
    /// Room to unescape a field into, shared by the rows of one COPY.
    final class Scratch {
        var storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        var capacity = 256
        deinit { storage.deallocate() }

        func reserve(_ needed: Int) {
            guard needed > capacity else { return }
            storage.deallocate()
            capacity = max(needed, capacity * 2)
            storage = .allocate(capacity: capacity)
        }
    }

    /// The row's bytes as the server sent them, with its final line feed.
    let line: UnsafeBufferPointer<UInt8>
    let scratch: Scratch

    /// Calls `body` with each field in column order: its text with escapes undone (valid for
    /// the call), or nil for NULL (`\N`).
    public func forEachField(_ body: (UnsafeBufferPointer<UInt8>?) throws -> Void) rethrows {
        guard let base = line.baseAddress else { return }
        var end = line.count
        if end > 0, base[end - 1] == 0x0A { end -= 1 }
        var start = 0
        while true {
            var index = start, escaped = false
            while index < end, base[index] != 0x09 {
                if base[index] == UInt8(ascii: "\\") { escaped = true; index += 1 }
                index += 1
            }
            index = min(index, end)
            let count = index - start
            if count == 2, base[start] == UInt8(ascii: "\\"), base[start + 1] == UInt8(ascii: "N") {
                try body(nil)
            } else if escaped {
                try body(unescaped(base + start, count: count))
            } else {
                try body(UnsafeBufferPointer(start: base + start, count: count))
            }
            if index >= end { return }
            start = index + 1
        }
    }

    /// The field's text with the escapes COPY's text format writes undone: `\b \f \n \r \t \v`
    /// and a backslash before any other character (which stands for that character).
    private func unescaped(_ field: UnsafePointer<UInt8>, count: Int) -> UnsafeBufferPointer<UInt8> {
        scratch.reserve(count)
        let out = scratch.storage
        var written = 0, index = 0
        while index < count {
            var byte = field[index]
            if byte == UInt8(ascii: "\\"), index + 1 < count {
                index += 1
                switch field[index] {
                case UInt8(ascii: "b"): byte = 0x08
                case UInt8(ascii: "f"): byte = 0x0C
                case UInt8(ascii: "n"): byte = 0x0A
                case UInt8(ascii: "r"): byte = 0x0D
                case UInt8(ascii: "t"): byte = 0x09
                case UInt8(ascii: "v"): byte = 0x0B
                default: byte = field[index]
                }
            }
            out[written] = byte
            written += 1
            index += 1
        }
        return UnsafeBufferPointer(start: out, count: written)
    }
}
