import Foundation
import Inventory
import StockroomStore

/// Writes results to standard output in the chosen format. Presentation itself lives in the
/// Inventory module; this only chooses and serialises.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    static func lines(_ texts: [String]) {
        for text in texts { print(text) }
    }

    /// One CSV record per RFC 4180: fields quoted when they hold a comma, quote or line break.
    static func csvRecord(_ fields: [String]) -> String {
        fields.map { field in
            // Quoted when it holds a separator, a quote or any control character (line breaks included).
            guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || ItemName.isControl($0) }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r"
    }

    /// The columns of `items`, as the codecs name them.
    static let itemCSVHeader = ItemRepository.columnNames

    /// An item's raw column values, the status columns through its codec (as stored: the tag,
    /// the quantity, the back-order flag as 0/1; NULL as an empty field).
    static func csvFields(for item: Item) -> [String] {
        [item.id.lowercasedString, item.name, item.color?.rawValue ?? ""] + StatusCodec.columnTexts(for: item.status)
    }
}

extension Output {
    /// Text without a line break.
    static func write(_ text: String) {
        print(text, terminator: "")
    }
}
