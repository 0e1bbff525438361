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

/// The CSV layout of an item: the columns of `stockroom items list --format csv`, then the
/// times. Column names are those of the `items` table.
enum ItemCSVLayout {
    enum Column: Int, CaseIterable {
        case id, name, color, status, quantity, isOnBackOrder, createdAt, updatedAt

        var title: String {
            switch self {
            case .id: "id"
            case .name: "name"
            case .color: "color"
            case .status: "status"
            case .quantity: "quantity"
            case .isOnBackOrder: "is_on_back_order"
            case .createdAt: "created_at"
            case .updatedAt: "updated_at"
            }
        }
    }

    /// `true`/`false` for the back-order flag, as `items list --format csv` writes it.
    static let trueText: StaticString = "true"
    static let falseText: StaticString = "false"

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
