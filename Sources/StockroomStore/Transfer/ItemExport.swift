import FoundationEssentials
import Glibc
import Inventory
import TextFormats

/// Writes every item, ordered by id, as CSV, JSON Lines or a JSON array.
///
/// The rows are read in one read transaction, so the output is one consistent snapshot however
/// many processes write meanwhile, and written through a fixed buffer as they are read, so
/// memory stays flat at any size. Each item carries its `created_at`/`updated_at` times.
public enum ItemExport {
    /// The item's columns then `created_at, updated_at`: the layout items are inserted with.
    static let layout = ItemsTable.insertLayout
    static let selectSQL = "SELECT \(layout.columns.list) FROM \(ItemsTable.name) ORDER BY \(ItemsTable.key)"

    /// Writes every item of `store`, file or server, to `descriptor` (standard output, say)
    /// and returns how many: the same bytes on either engine for the same rows, read in one
    /// snapshot (on a server a page of rows at a time in id order; `id` is `COLLATE "C"`, so
    /// the order is SQLite's).
    public static func write(_ format: TransferFormat, from store: InventoryStore, to descriptor: Int32) throws -> Int {
        let output = ByteOutput(descriptor: descriptor)
        let count = try store.connection.exportItems(format, to: output)
        try output.flush()
        return count
    }

    /// Writes every item of `store` to the file at `path`, never leaving a partial file there:
    /// the output goes to a temporary file beside `path`, is synced, and is renamed into place
    /// only when complete. An existing file at `path` is replaced.
    ///
    /// - Throws: ``BackupError/cannotCreate(_:reason:)`` when the folder is missing or
    ///   unwritable; ``TransferError`` when writing fails; the engine's errors from reading.
    public static func write(_ format: TransferFormat, from store: InventoryStore, toFile path: String) throws -> Int {
        try writeFile(path) { descriptor in try write(format, from: store, to: descriptor) }
    }

    private static func writeFile(_ path: String, _ body: (Int32) throws -> Int) throws -> Int {
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
            count = try body(descriptor)
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

    /// Every item in one read snapshot, written once for both engines: one statement stepping
    /// through every row where the engine streams them (SQLite), else pages of rows, each
    /// resuming after the last id of the one before (keyset pagination, as `stockroom copy`
    /// reads), so a server never holds more than a page for us.
    static func write<Connection: StoreConnection>(_ format: TransferFormat, from connection: Connection,
                                                           to output: ByteOutput) throws -> Int {
        try connection.inReadTransaction {
            try writeStart(format, to: output)
            var count = 0
            var lastID: String?
            if let pageSize = connection.readPageSize {
                // The page size is spelled in the SQL: a prepared `LIMIT $n` gets a generic plan.
                let select = "SELECT \(layout.columns.list) FROM \(ItemsTable.name)"
                let first = "\(select) ORDER BY id LIMIT \(pageSize)"
                let next = "\(select) WHERE id > ?1 ORDER BY id LIMIT \(pageSize)"
                while true {
                    let before = count
                    try connection.withStatement(lastID == nil ? first : next) { statement in
                        if let lastID { try statement.bind(lastID, at: 0) }
                        try writeRows(format, from: statement, count: &count, lastID: &lastID, keepingLastID: true, to: output)
                    }
                    if count - before < pageSize { break }
                }
            } else {
                try connection.withStatement(selectSQL) { statement in
                    try writeRows(format, from: statement, count: &count, lastID: &lastID, keepingLastID: false, to: output)
                }
            }
            try writeEnd(format, to: output)
            return count
        }
    }

    private static func writeStart(_ format: TransferFormat, to output: ByteOutput) throws {
        switch format {
        case .csv:
            let header = ItemCSVLayout.Column.allCases.map(\.title).joined(separator: ",") + "\r\n"
            try output.append(Array(header.utf8))
        case .json: try output.append(UInt8(ascii: "["))
        case .jsonl: break
        }
    }

    private static func writeEnd(_ format: TransferFormat, to output: ByteOutput) throws {
        if format == .json { try output.append("]\n") }
    }

    /// Writes every row `statement` steps to, counting on from `count`; with `keepingLastID`,
    /// leaves the last row's id in `lastID` (where the next page resumes).
    private static func writeRows<Rows: StoreStatement>(
        _ format: TransferFormat, from statement: Rows, count: inout Int,
        lastID: inout String?, keepingLastID: Bool, to output: ByteOutput
    ) throws {
        let plan = RowPlan()
        switch format {
        case .csv:
            while try statement.step() {
                try writeCSVRow(statement, plan: plan, to: output)
                if keepingLastID { lastID = statement.text(at: layout.item) }
                count += 1
            }
        case .jsonl, .json:
            let json = JSONShape()
            let isArray = format == .json
            while try statement.step() {
                if isArray && count > 0 { try output.append(UInt8(ascii: ",")) }
                try writeJSONObject(statement, shape: json, plan: plan, to: output)
                if !isArray { try output.append(UInt8(ascii: "\n")) }
                if keepingLastID { lastID = statement.text(at: layout.item) }
                count += 1
            }
        }
    }

    // MARK: Fields

    /// What every row is written by, worked out once per export: the column of each optional
    /// text (by its raw value) in a row of ``layout``.
    struct RowPlan {
        let textColumns = OptionalTextField.allCases.map { layout.item + ItemCodec.textOffsets[$0.rawValue] }
    }

    /// The current row through ``ItemCodec``: the colour and status decoded, the id, name and
    /// optional texts left as column positions so their text is copied out without making a `String`.
    @inline(__always)
    private static func decodedRow<Row: ColumnSource>(_ statement: Row) throws -> ItemCodec.InPlace {
        var row = RowReader(statement, at: layout.item)
        do {
            return try ItemCodec.decodeInPlace(from: &row)
        } catch {
            throw StoreError.undecodableRow(table: ItemsTable.name, id: statement.text(at: layout.item), reason: error.reason)
        }
    }

    /// The columns of `items list --format csv` (the raw column values, the status through its
    /// codec), then the two times, from a row of ``layout``'s columns. Also what the import
    /// fuzzer writes back its accepted rows with (Fuzz/Sources/FuzzImportRowDecoder).
    static func writeCSVRow<Row: ColumnSource>(_ statement: Row, plan: RowPlan = RowPlan(), to output: ByteOutput) throws {
        let row = try decodedRow(statement)
        try statement.withText(at: row.id) { id in try output.append(id) }
        try ItemField.forEach { field in
            try output.append(UInt8(ascii: ","))
            switch field.kind {
            case .name:
                try statement.withText(at: row.name) { name in try writeCSVName(name, to: output) }
            case .color:
                if let color = row.color { try output.append(ColorCodec.text(for: color)) }
            case .status:
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
            case .optionalText(let text):
                let position = plan.textColumns[text.rawValue]
                if !statement.isNull(at: position) {
                    try statement.withText(at: position) { text in try writeCSVName(text, to: output) }
                }
            }
        }
        try output.append(UInt8(ascii: ","))
        try statement.withText(at: layout.createdAt) { time in try output.append(time) }
        try output.append(UInt8(ascii: ","))
        try statement.withText(at: layout.updatedAt) { time in try output.append(time) }
        try output.append("\r\n")
    }

    /// A name as a CSV field, quoted by the one CSV rule (``CSVText/needsQuotes(_:)``,
    /// ``CSVText/writeField(_:prefix:to:)``) and guarded with a leading `'` when a spreadsheet
    /// would take it for a formula. The common name, neither, is copied as it is without a call.
    @inline(__always)
    static func writeCSVName(_ name: UnsafeBufferPointer<UInt8>, to output: ByteOutput) throws {
        let guarded = ItemCSVLayout.needsFormulaGuard(name)
        guard guarded || CSVText.needsQuotes(name) else { return try output.append(name) }
        try CSVText.writeField(name, prefix: guarded ? UInt8(ascii: "'") : nil, to: output)
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

    private static func writeJSONObject<Row: ColumnSource>(_ statement: Row, shape: JSONShape, plan: RowPlan,
                                                           to output: ByteOutput) throws {
        let row = try decodedRow(statement)
        try output.append("{\"id\":\"")
        try statement.withText(at: row.id) { id in try output.append(id) }
        try output.append(UInt8(ascii: "\""))
        try ItemField.forEach { field in
            try output.append(",\"")
            try output.append(field.staticKey)
            try output.append("\":")
            switch field.kind {
            case .name:
                try statement.withText(at: row.name) { name in try JSONText.writeString(name, to: output) }
            case .color:
                if let color = row.color {
                    try output.append(UInt8(ascii: "\""))
                    var raw = color.rawValue  // as `items show --format json` writes it; a small string, not allocated
                    try raw.withUTF8 { bytes in try output.append(bytes) }
                    try output.append(UInt8(ascii: "\""))
                } else {
                    try output.append("null")
                }
            case .status:
                switch row.status {
                case .inStock(let quantity):
                    try output.append(shape.inStockPrefix)
                    try output.append(quantity)
                    try output.append(shape.inStockSuffix)
                case .outOfStock(let isOnBackOrder):
                    try output.append(isOnBackOrder ? shape.backOrder : shape.outOfStock)
                }
            case .optionalText(let text):
                let position = plan.textColumns[text.rawValue]
                if statement.isNull(at: position) {
                    try output.append("null")
                } else {
                    try statement.withText(at: position) { text in try JSONText.writeString(text, to: output) }
                }
            }
        }
        try output.append(",\"createdAt\":\"")
        try statement.withText(at: layout.createdAt) { time in try output.append(time) }
        try output.append("\",\"updatedAt\":\"")
        try statement.withText(at: layout.updatedAt) { time in try output.append(time) }
        try output.append("\"}")
    }
}
