import Glibc
import FoundationEssentials
import Inventory
import StockroomStore

/// Writes results to standard output in the chosen format. Presentation itself lives in the
/// Inventory module, JSON, CSV and table syntax in TextFormats; this only chooses and writes.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    static func lines(_ texts: [String]) {
        for text in texts { print(text) }
    }

    /// The columns of `items`, as the codecs name them.
    static let itemCSVHeader = ItemRepository.columnNames

    /// An item's raw column values, the status columns through its codec (as stored: the tag,
    /// the quantity, the back-order flag as 0/1; NULL as an empty field).
    static func csvFields(for item: Item) -> [String] {
        [item.id.lowercasedString, item.name, item.color?.rawValue ?? ""] + StatusCodec.columnTexts(for: item.status)
            + [item.location?.text ?? ""]
    }
}

extension Output {
    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// Text without a line break.
    static func write(_ text: String) {
        print(text, terminator: "")
    }
}
