import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom items list`: filters, pages and prints items.
extension ItemQuery.StatusFilter: ExpressibleByArgument {
    /// The option's spelling of each filter: the store's, shared with `stockroom serve`.
    var argument: String { text }

    public init?(argument: String) {
        self.init(text: argument)
    }

    public var defaultValueDescription: String { argument }
    public static var allValueStrings: [String] { allCases.map(\.argument) }
}

struct ListItems: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items, ordered by name then id.",
        discussion: "JSON and CSV stream row by row, so large inventories print without being held in memory."
    )

    /// The older spelling of the status filter, kept hidden so existing scripts still work.
    enum StatusFlag: String, EnumerableFlag {
        case inStock, outOfStock, backOrder

        static func help(for value: StatusFlag) -> ArgumentHelp? {
            .hidden
        }

        var flagName: String {
            switch self {
            case .inStock: "--in-stock"
            case .outOfStock: "--out-of-stock"
            case .backOrder: "--back-order"
            }
        }

        var filter: ItemQuery.StatusFilter {
            switch self {
            case .inStock: .inStock
            case .outOfStock: .outOfStock
            case .backOrder: .onBackOrder
            }
        }
    }

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Only items with this status: in-stock, out-of-stock, or on-back-order (out of stock and on back order).", valueName: "status"))
    var status: ItemQuery.StatusFilter?

    @Flag var statusFlag: StatusFlag?

    @Option(help: ArgumentHelp("Only items of this colour.", valueName: "color"))
    var color: Color?

    @Option(help: ArgumentHelp("Only items kept here (the whole location, letters in any case).", valueName: "text"))
    var location: String?

    @Option(help: ArgumentHelp("Only items whose name contains this text (ASCII letters match in any case).", valueName: "text"))
    var search: String?

    @Option(help: ArgumentHelp("At most this many items.", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Skip this many items first.", valueName: "n"))
    var offset: Int = 0

    @Option(help: "Output format.")
    var format: OutputFormat = .table

    func validate() throws {
        if status != nil, let statusFlag {
            throw ValidationError("--status and \(statusFlag.flagName) cannot be used together")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if offset < 0 { throw ValidationError("--offset must not be negative") }
        // A blank location means "none" when it is given to an item; as a filter it would
        // match nothing or everything, so it is refused rather than guessed.
        if let location, try OptionalTextRule.parse(location, .location) == nil {
            throw ValidationError("--location: give the location to list, not a blank one")
        }
    }

    var query: ItemQuery {
        ItemQuery(status: status ?? statusFlag?.filter, color: color, nameContains: search, limit: limit, offset: offset,
                  location: ((try? OptionalTextRule.parse(location, .location)) ?? nil).map(ItemLocation.init(stored:)))
    }

    func run() throws {
        try ItemReads.list(query, format: format, database: database.choice)
    }
}
