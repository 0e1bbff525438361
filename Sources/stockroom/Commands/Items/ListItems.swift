import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom items list`: filters, pages and prints items.
struct ListItems: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items, ordered by name then id.",
        discussion: "JSON and CSV stream row by row, so large inventories print without being held in memory."
    )

    enum StatusFilter: String, EnumerableFlag {
        case inStock, outOfStock, backOrder

        static func help(for value: StatusFilter) -> ArgumentHelp? {
            switch value {
            case .inStock: "Only items in stock."
            case .outOfStock: "Only items out of stock."
            case .backOrder: "Only items out of stock and on back order."
            }
        }
    }

    @OptionGroup var database: DatabaseOptions

    @Flag var statusFilter: StatusFilter?

    @Option(help: ArgumentHelp("Only items of this colour.", valueName: "color"))
    var color: Color?

    @Option(help: ArgumentHelp("Only items whose name contains this text (ASCII letters match in any case).", valueName: "text"))
    var search: String?

    @Option(help: ArgumentHelp("At most this many items.", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Skip this many items first.", valueName: "n"))
    var offset: Int = 0

    @Option(help: "Output format.")
    var format: OutputFormat = .table

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if offset < 0 { throw ValidationError("--offset must not be negative") }
    }

    var query: ItemQuery {
        let status: ItemQuery.StatusFilter? = switch statusFilter {
        case .inStock: .inStock
        case .outOfStock: .outOfStock
        case .backOrder: .onBackOrder
        case nil: nil
        }
        return ItemQuery(status: status, color: color, nameContains: search, limit: limit, offset: offset)
    }

    func run() throws {
        let items = try database.openStoreForReading(.items).items
        switch format {
        case .table:
            Output.lines(Presentation.table(for: try items.items(matching: query)))
        case .json:
            var first = true
            Output.write("[")
            try items.forEachItem(matching: query) { item in
                Output.write((first ? "" : ",") + (JSONPresentation.object(for: item)))
                first = false
            }
            Output.line("]")
        case .csv:
            Output.write(Output.csvRecord(Output.itemCSVHeader) + "\n")
            try items.forEachItem(matching: query) { item in
                Output.write(Output.csvRecord(Output.csvFields(for: item)) + "\n")
            }
        }
    }
}
