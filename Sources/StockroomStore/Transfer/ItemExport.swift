import Foundation
import Inventory
import SQLiteCore
import TextFormats

/// Writes every item, ordered by id, as CSV, JSON Lines or a JSON array.
///
/// The rows are read in one read transaction, so the output is one consistent snapshot however
/// many processes write meanwhile, and written through a fixed buffer as they are read, so
/// memory stays flat at any size. Each item carries its `created_at`/`updated_at` times.
public enum ItemExport {
    /// The item's columns then `created_at, updated_at`: the layout items are inserted with.
    static let layout = ItemRepository.insertLayout
    static let selectSQL = "SELECT \(layout.columns.list) FROM items ORDER BY id"

    /// Writes every item to `descriptor` (standard output, say) and returns how many.
    public static func write(_ format: TransferFormat, from database: Database, to descriptor: Int32) throws -> Int {
        let output = ByteOutput(descriptor: descriptor)
        let count = try database.readTransaction {
            try write(format, from: database, to: output)
        }
        try output.flush()
        return count
    }

    /// Writes every item to the file at `path`, never leaving a partial file there: the output
    /// goes to a temporary file beside `path`, is synced, and is renamed into place only when
    /// complete. An existing file at `path` is replaced.
    ///
    /// - Throws: ``BackupError/cannotCreate(_:reason:)`` when the folder is missing or
    ///   unwritable; ``TransferError`` when writing fails; SQLite errors from reading.
    public static func write(_ format: TransferFormat, from database: Database, toFile path: String) throws -> Int {
        try DurableFile.checkCanCreate(path, replacing: true)
        let temporaryFile = try DurableFile.createTemporary(besides: path)
        let temporary = temporaryFile.path
        var moved = false
        defer { if !moved { temporaryFile.removeUnlessMoved() } }
        let descriptor = open(temporary, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupError.cannotCreate(path, reason: String(cString: strerror(errno))) }
        let count: Int
        do {
            defer { close(descriptor) }
            count = try write(format, from: database, to: descriptor)
            guard fsync(descriptor) == 0 else { throw TransferError.unwritable(reason: String(cString: strerror(errno))) }
        }
        // Readable like any file the user makes (the temporary was created owner-only).
        let mask = umask(0)
        umask(mask)
        chmod(temporary, 0o666 & ~mask)
        try DurableFile.moveIntoPlace(temporary, to: path, replacing: true)
        moved = true
        try DurableFile.syncFolder(of: path)
        return count
    }

    private static func write(_ format: TransferFormat, from database: Database, to output: ByteOutput) throws -> Int {
        let statement = try database.prepare(selectSQL)
        defer { statement.reset() }
        var count = 0
        switch format {
        case .csv:
            let header = ItemCSVLayout.Column.allCases.map(\.title).joined(separator: ",") + "\r\n"
            try output.append(Array(header.utf8))
            while try statement.step() {
                try writeCSVRow(statement, to: output)
                count += 1
            }
        case .jsonl, .json:
            let json = JSONShape()
            let isArray = format == .json
            if isArray { try output.append(UInt8(ascii: "[")) }
            while try statement.step() {
                if isArray && count > 0 { try output.append(UInt8(ascii: ",")) }
                try writeJSONObject(statement, shape: json, to: output)
                if !isArray { try output.append(UInt8(ascii: "\n")) }
                count += 1
            }
            if isArray { try output.append("]\n") }
        }
        return count
    }

    // MARK: Fields

    /// The current row through ``ItemCodec``: the colour and status decoded, the id and name
    /// left as column positions so their text is copied out without making a `String`.
    @inline(__always)
    private static func decodedRow(_ statement: Statement) throws -> (id: Int, name: Int, color: Color?, status: Status) {
        var row = RowReader(statement, at: layout.item)
        do {
            return try ItemCodec.decodeInPlace(from: &row)
        } catch {
            throw StoreError.undecodableRow(table: "items", id: statement.text(at: layout.item), reason: error.reason)
        }
    }

    /// The columns of `items list --format csv` (the raw column values, the status through its
    /// codec), then the two times.
    private static func writeCSVRow(_ statement: Statement, to output: ByteOutput) throws {
        let row = try decodedRow(statement)
        try statement.withText(at: row.id) { id in try output.append(id) }
        try output.append(UInt8(ascii: ","))
        try statement.withText(at: row.name) { name in try writeCSVName(name, to: output) }
        try output.append(UInt8(ascii: ","))
        if let color = row.color { try output.append(ColorCodec.text(for: color)) }
        try output.append(UInt8(ascii: ","))
        try output.append(StatusCodec.text(for: StatusCodec.tag(of: row.status)))
        switch row.status {
        case .inStock(let quantity):
            try output.append(UInt8(ascii: ","))
            try output.append(quantity)
            try output.append(UInt8(ascii: ","))
        case .outOfStock(let isOnBackOrder):
            try output.append(",,")
            try output.append(StatusCodec.flagText(isOnBackOrder))
        }
        try output.append(UInt8(ascii: ","))
        try statement.withText(at: layout.createdAt) { time in try output.append(time) }
        try output.append(UInt8(ascii: ","))
        try statement.withText(at: layout.updatedAt) { time in try output.append(time) }
        try output.append("\r\n")
    }

    /// A name as a CSV field: quoted when it holds a comma, quote or line break (quotes
    /// doubled), and guarded with a leading `'` when a spreadsheet would take it for a formula.
    @inline(__always)
    static func writeCSVName(_ name: UnsafeBufferPointer<UInt8>, to output: ByteOutput) throws {
        var needsQuotes = false
        for byte in name where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
            needsQuotes = true
            break
        }
        if needsQuotes { try output.append(UInt8(ascii: "\"")) }
        if ItemCSVLayout.needsFormulaGuard(name) { try output.append(UInt8(ascii: "'")) }
        if needsQuotes {
            for byte in name {
                if byte == UInt8(ascii: "\"") { try output.append(byte) }
                try output.append(byte)
            }
            try output.append(UInt8(ascii: "\""))
        } else {
            try output.append(name)
        }
    }

    /// The pieces of an item's JSON object that do not vary, taken from ``JSONPresentation`` so
    /// the export writes exactly what `items show --format json` does.
    struct JSONShape {
        let inStockPrefix: [UInt8]
        let inStockSuffix: [UInt8]
        let outOfStock: [UInt8]
        let backOrder: [UInt8]

        init() {
            // `{"case":"inStock","quantity":1}` split around its number.
            let inStock = Array(JSONPresentation.object(for: .inStock(quantity: 1)).utf8)
            let digit = inStock.lastIndex(of: UInt8(ascii: "1"))!
            inStockPrefix = Array(inStock[..<digit])
            inStockSuffix = Array(inStock[(digit + 1)...])
            outOfStock = Array(JSONPresentation.object(for: .outOfStock(isOnBackOrder: false)).utf8)
            backOrder = Array(JSONPresentation.object(for: .outOfStock(isOnBackOrder: true)).utf8)
        }
    }

    private static func writeJSONObject(_ statement: Statement, shape: JSONShape, to output: ByteOutput) throws {
        let row = try decodedRow(statement)
        try output.append("{\"id\":\"")
        try statement.withText(at: row.id) { id in try output.append(id) }
        try output.append("\",\"name\":")
        try statement.withText(at: row.name) { name in try JSONText.writeString(name, to: output) }
        try output.append(",\"color\":")
        if let color = row.color {
            try output.append(UInt8(ascii: "\""))
            var raw = color.rawValue  // as `items show --format json` writes it; a small string, not allocated
            try raw.withUTF8 { bytes in try output.append(bytes) }
            try output.append(UInt8(ascii: "\""))
        } else {
            try output.append("null")
        }
        try output.append(",\"status\":")
        switch row.status {
        case .inStock(let quantity):
            try output.append(shape.inStockPrefix)
            try output.append(quantity)
            try output.append(shape.inStockSuffix)
        case .outOfStock(let isOnBackOrder):
            try output.append(isOnBackOrder ? shape.backOrder : shape.outOfStock)
        }
        try output.append(",\"createdAt\":\"")
        try statement.withText(at: layout.createdAt) { time in try output.append(time) }
        try output.append("\",\"updatedAt\":\"")
        try statement.withText(at: layout.updatedAt) { time in try output.append(time) }
        try output.append("\"}")
    }
}
