import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom items adjust`: the counter's change, relative to what is in stock.
struct AdjustItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Add to or take from an item's quantity in stock, and print it.",
        discussion: """
            --by -1 sells one, --by 10 receives ten. The change is made to the quantity stored \
            when the command writes, in one write transaction, so counters selling the same item \
            at once all count without --if-version. Taking the last one leaves the item out of \
            stock (not on back order); receiving into an out-of-stock item puts that many in \
            stock; --by 0 changes nothing. Taking more than is in stock is refused, nothing \
            changed, with exit \(Failure.Code.dataError.rawValue) ("only 2 in stock, cannot take 3"). \
            With --if-version N the adjustment happens only while the item is still at version N, \
            else exit \(Failure.Code.versionConflict.rawValue).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The item's id or id prefix.", valueName: "id"))
    var id: String

    // Unconditional: `--by -1` is the everyday case, and would otherwise read as an option.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("How many more are in stock: negative to take (sell), positive to receive.", valueName: "n"))
    var by: Int

    @Option(help: ArgumentHelp("Adjust only if the item is still at this version (see `items show`).", valueName: "n"))
    var ifVersion: Int?

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func validate() throws {
        try IDArgument.validate(id, .item)
        if let ifVersion, ifVersion < 1 { throw ValidationError("--if-version must be at least 1") }
    }

    func run() throws {
        let store = try database.openStore()
        let adjusted = try store.write {
            try store.items.adjust(id: try store.items.resolveID(id), by: by, ifVersion: ifVersion)
        }
        switch format {
        case .json: Output.line(JSONPresentation.object(for: adjusted))
        case .table: Output.line(Presentation.row(for: adjusted))
        }
    }
}
