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
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
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
