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

    /// An item's raw column values under ``itemCSVHeader``, as its codecs store them (the
    /// status's tag, the quantity, the back-order flag as 0/1; NULL as an empty field).
    static func csvFields(for item: Item) -> [String] {
        ItemRepository.columnTexts(for: item)
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
