import Foundation
import Inventory

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

    static let itemCSVHeader = ["id", "name", "color", "status", "quantity", "is_on_back_order"]

    static func csvFields(for item: Item) -> [String] {
        let (status, quantity, backOrder): (String, String, String) = switch item.status {
        case .inStock(let quantity): ("in_stock", String(quantity), "")
        case .outOfStock(let isOnBackOrder): ("out_of_stock", "", isOnBackOrder ? "true" : "false")
        }
        return [item.id.lowercasedString, item.name, item.color?.rawValue ?? "", status, quantity, backOrder]
    }
}

extension Output {
    /// Text without a line break.
    static func write(_ text: String) {
        print(text, terminator: "")
    }
}
