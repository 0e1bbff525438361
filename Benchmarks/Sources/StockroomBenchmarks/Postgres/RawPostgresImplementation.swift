import Foundation
import Inventory
import RawLibPQ

/// The physical limit on PostgreSQL: libpq calls made directly (linked with -lpq), doing the
/// SQLite raw peer's work: statements prepared once on the server (PQprepare) and run with text
/// parameters (PQexecPrepared) from stack buffers and static strings, one round trip per
/// statement, rows read from libpq's result as raw bytes. `open(path:)` takes a connection URI.
///
/// Not done: libpq's pipeline mode (PQenterPipelineMode, libpq 14), which would send W1's rows
/// without waiting for each reply; PostgresCore does not pipeline either, so the two compare the
/// same protocol work.
final class RawPostgresImplementation: Implementation {
    let name = "raw libpq"
    private(set) var connection: OpaquePointer?
    private var preparedStatements: Set<String> = []

    func open(path uri: String) throws {
        connection = PQconnectdb(uri)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = failure()
            close()
            throw message
        }
        for (name, sql) in [("insert_item", PostgresSQL.insertItem),
                            ("select_all", PostgresSQL.selectAll), ("page", PostgresSQL.page)] {
            try check(PQprepare(connection, name, sql, 0, nil), PGRES_COMMAND_OK)
        }
    }

    func close() {
        PQfinish(connection)
        connection = nil
    }

    func insert(_ items: [Item]) throws {
        let now = isoNow()
        try check(PQexec(connection, "BEGIN"), PGRES_COMMAND_OK)
        do {
            try now.withCString { nowText in
                for item in items {
                    try withParameters(of: item, now: nowText) { values in
                        try check(PQexecPrepared(connection, "insert_item", 8, values, nil, nil, 0), PGRES_COMMAND_OK)
                    }
                }
            }
            try check(PQexec(connection, "COMMIT"), PGRES_COMMAND_OK)
        } catch {
            PQclear(PQexec(connection, "ROLLBACK"))
            throw error
        }
    }

    /// Loads `items` and their `added` events with two `COPY ... FROM STDIN` (text format): the
    /// same rows as ``insert(_:)``, for building W2's and W3's database quickly.
    func seed(_ items: [Item]) throws {
        let now = isoNow()
        try check(PQexec(connection, "BEGIN"), PGRES_COMMAND_OK)
        // The items only: the schema's AFTER INSERT trigger (items_record_added) writes each
        // item's `added` event, as it does for every other writer.
        try check(PQexec(connection, "COPY items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) FROM STDIN"),
                  PGRES_COPY_IN)
        var text = ""
        for item in items {
            let color = item.color.map { RawImplementation.colorText($0).description } ?? "\\N"
            let status: String
            switch item.status {
            case .inStock(let quantity): status = "in_stock\t\(quantity)\t\\N"
            case .outOfStock(let isOnBackOrder): status = "out_of_stock\t\\N\t\(isOnBackOrder ? 1 : 0)"
            }
            // Dataset names hold no tab, newline or backslash, so need no escaping.
            text += "\(item.id.uuidString.lowercased())\t\(item.name)\t\(color)\t\(status)\t\(now)\t\(now)\n"
            if text.utf8.count > 1 << 16 { try putCopyData(&text) }
        }
        try putCopyData(&text)
        guard PQputCopyEnd(connection, nil) == 1 else { throw failure() }
        try check(PQgetResult(connection), PGRES_COMMAND_OK)
        while let rest = PQgetResult(connection) { PQclear(rest) }
        try check(PQexec(connection, "COMMIT"), PGRES_COMMAND_OK)
    }

    func putCopyData(_ text: inout String) throws {
        guard !text.isEmpty else { return }
        let sent = text.withCString { PQputCopyData(connection, $0, Int32(strlen($0))) }
        guard sent == 1 else { throw failure() }
        text = ""
    }

    func fetchAll() throws -> [Item] {
        let result = try rows(PQexecPrepared(connection, "select_all", 0, nil, nil, nil, 0))
        defer { PQclear(result) }
        return try decodeItems(result)
    }

    func page(color: Color, namePrefix: String) throws -> [Item] {
        let colorText = RawImplementation.colorText(color)
        let result = try namePrefix.withCString { prefix in
            var values: [UnsafePointer<CChar>?] = [UnsafeRawPointer(colorText.utf8Start).assumingMemoryBound(to: CChar.self), prefix]
            return try rows(PQexecPrepared(connection, "page", 2, &values, nil, nil, 0))
        }
        defer { PQclear(result) }
        return try decodeItems(result)
    }

    // MARK: Helpers

    /// Calls `body` with the seven text parameters of both inserts: id, name, colour, status
    /// tag, quantity, back-order flag, timestamp; NULL pointers for NULL.
    @inline(__always)
    private func withParameters(of item: Item, now: UnsafePointer<CChar>,
                                _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> Void) throws {
        // 36 characters and a NUL, then up to 20 digits and a NUL for the quantity: on the stack,
        // as are the eight pointers.
        var id: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        var quantity: (UInt64, UInt64, UInt64) = (0, 0, 0)
        typealias Text = UnsafePointer<CChar>?
        var values: (Text, Text, Text, Text, Text, Text, Text, Text) = (nil, nil, nil, nil, nil, nil, nil, now)
        try withUnsafeMutableBytes(of: &id) { idText in
            RawPostgresImplementation.format(item.id, into: idText)
            values.0 = UnsafePointer(idText.baseAddress!.assumingMemoryBound(to: CChar.self))
            try withUnsafeMutableBytes(of: &quantity) { quantityText in
                values.2 = item.color.map { RawPostgresImplementation.text(RawImplementation.colorText($0)) }
                switch item.status {
                case .inStock(let count):
                    values.3 = RawPostgresImplementation.text("in_stock")
                    RawPostgresImplementation.format(count, into: quantityText)
                    values.4 = UnsafePointer(quantityText.baseAddress!.assumingMemoryBound(to: CChar.self))
                case .outOfStock(let isOnBackOrder):
                    values.3 = RawPostgresImplementation.text("out_of_stock")
                    values.5 = RawPostgresImplementation.text(isOnBackOrder ? "1" : "0")
                }
                try item.name.withCString { nameText in
                    values.1 = nameText
                    try (item.location?.text ?? "").withCString { locationText in
                        values.6 = item.location == nil ? nil : locationText
                        try withUnsafePointer(to: &values) { tuple in
                            try tuple.withMemoryRebound(to: Text.self, capacity: 8) { try body($0) }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func text(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Lowercase canonical UUID text and a NUL into `text` (at least 37 bytes).
    @inline(__always)
    private static func format(_ id: UUID, into text: UnsafeMutableRawBufferPointer) {
        withUnsafeBytes(of: id.uuid) { raw in
            var out = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { text[out] = UInt8(ascii: "-"); out += 1 }
                let high = raw[index] >> 4, low = raw[index] & 0x0F
                text[out] = high < 10 ? 48 + high : 87 + high
                text[out + 1] = low < 10 ? 48 + low : 87 + low
                out += 2
            }
            text[out] = 0
        }
    }

    /// Decimal digits of a positive `value` and a NUL into `text`.
    @inline(__always)
    private static func format(_ value: Int, into text: UnsafeMutableRawBufferPointer) {
        var digits = 0, rest = value
        repeat { digits += 1; rest /= 10 } while rest > 0
        rest = value
        for position in stride(from: digits - 1, through: 0, by: -1) {
            text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        text[digits] = 0
    }

    @inline(__always)
    private func bytes(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let value = PQgetvalue(result, row, column)!
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                                   count: Int(PQgetlength(result, row, column)))
    }

    private func decodeItems(_ result: OpaquePointer) throws -> [Item] {
        let count = PQntuples(result)
        var items: [Item] = []
        items.reserveCapacity(Int(count))
        for row in 0..<count {
            guard let id = UUID(canonicalUTF8: bytes(result, row, 0)) else { throw BenchmarkError(message: "bad id") }
            let name = String(decoding: bytes(result, row, 1), as: UTF8.self)
            let color = PQgetisnull(result, row, 2) == 1 ? nil : RawImplementation.color(bytes(result, row, 2))
            let status: Status
            if PQgetlength(result, row, 3) == 8 {
                var quantity = 0
                for digit in bytes(result, row, 4) { quantity = quantity * 10 + Int(digit - UInt8(ascii: "0")) }
                status = .inStock(quantity: quantity)
            } else {
                status = .outOfStock(isOnBackOrder: bytes(result, row, 5).first == UInt8(ascii: "1"))
            }
            let location = PQgetisnull(result, row, 6) == 1 ? nil : ItemLocation(stored: String(decoding: bytes(result, row, 6), as: UTF8.self))
            items.append(Item(id: id, name: name, color: color, status: status, location: location))
        }
        return items
    }

    /// Throws libpq's message unless `result` has `status`, and clears it.
    func check(_ result: OpaquePointer?, _ status: ExecStatusType) throws {
        PQclear(try rows(result, status))
    }

    /// Returns `result` when it has `status` (the caller clears it), else throws libpq's message.
    private func rows(_ result: OpaquePointer?, _ status: ExecStatusType = PGRES_TUPLES_OK) throws -> OpaquePointer {
        guard let result, PQresultStatus(result) == status else {
            let message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
            PQclear(result)
            throw message.isEmpty ? failure() : BenchmarkError(message: message)
        }
        return result
    }

    func failure() -> BenchmarkError {
        BenchmarkError(message: connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "cannot connect")
    }
}
