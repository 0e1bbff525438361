import Inventory

/// The file formats of `stockroom import` and `stockroom export`.
public enum TransferFormat: String, Sendable, CaseIterable {
    /// JSON Lines: one item object per line (the default).
    case jsonl
    /// RFC 4180 CSV with a header row.
    case csv
    /// One JSON array of item objects (export only).
    case json

    /// The format a file's extension names (`.csv`, `.jsonl`, `.ndjson`, `.json`), if any.
    public static func fromExtension(of path: String) -> TransferFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv": return .csv
        case "jsonl", "ndjson": return .jsonl
        case "json": return .json
        default: return nil
        }
    }
}

/// The CSV layout of an item: the columns of `stockroom items list --format csv` (the raw
/// values of the `items` table's columns, as ``ItemCodec`` and ``StatusCodec`` name and write
/// them), then the times.
enum ItemCSVLayout {
    /// A column of the file: the id, each field's columns in ``ItemField``'s order, the times.
    enum Column: Hashable {
        case id, name, color, status, quantity, isOnBackOrder
        /// An optional text field's column.
        case text(OptionalTextField)
        case createdAt, updatedAt

        /// Every column, in the order export writes them: derived from the declaration of the
        /// fields, so it is the order of ``ItemsTable/insertLayout`` by construction.
        static let allCases: [Column] = [.id] + ItemField.allCases.flatMap(columns(of:)) + [.createdAt, .updatedAt]

        /// The columns holding `field`.
        static func columns(of field: ItemField) -> [Column] {
            switch field.kind {
            case .name: [.name]
            case .color: [.color]
            case .status: [.status, .quantity, .isOnBackOrder]
            case .optionalText(let text): [.text(text)]
            }
        }

        /// The column's name in the header: the table's column it holds.
        var title: String {
            switch self {
            case .id: ItemsTable.key
            case .name: ItemField.name.column
            case .color: ColorCodec.column
            case .status: StatusCodec.columns()[0]
            case .quantity: StatusCodec.columns()[1]
            case .isOnBackOrder: StatusCodec.columns()[2]
            case .text(let text): text.field.column
            case .createdAt: "created_at"
            case .updatedAt: "updated_at"
            }
        }
    }

    /// The header's titles, in ``Column/allCases`` order.
    static let titles: [String] = Column.allCases.map(\.title)

    /// The back-order flag as files from exports before the codecs wrote it (`true`/`false`,
    /// any letter case): still read, never written.
    @inline(__always)
    static func legacyFlag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        func matches(_ word: StaticString) -> Bool {
            guard bytes.count == word.utf8CodeUnitCount else { return false }
            for index in 0..<bytes.count where bytes[index] | 0x20 != word.utf8Start[index] { return false }
            return true
        }
        if matches("true") { return true }
        if matches("false") { return false }
        return nil
    }

    /// Bytes that make a spreadsheet read a cell as a formula when they come first. A name
    /// starting with one of them (or with the apostrophe itself) is written with a leading `'`,
    /// which spreadsheets treat as "this is text" and import removes again.
    @inline(__always)
    static func needsFormulaGuard(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first else { return false }
        return isFormulaStart(first) || first == UInt8(ascii: "'")
    }

    @inline(__always)
    static func isFormulaStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    /// The name without the guard apostrophe that ``needsFormulaGuard(_:)`` added, if any.
    @inline(__always)
    static func removingFormulaGuard(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard field.count >= 2, field[0] == UInt8(ascii: "'"),
              isFormulaStart(field[1]) || field[1] == UInt8(ascii: "'") else { return field }
        return UnsafeBufferPointer(rebasing: field[1...])
    }
}
