import ArgumentParser
import Inventory
import StockroomStore
import TextFormats

/// `stockroom items history`: every change to an item, oldest first.
struct ItemHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show every change to an item, oldest first.",
        discussion: """
            Works after the item was deleted: history is kept. ID may be the full id or a unique \
            prefix of at least 4 characters. The table shows version, time (UTC) and the change \
            in words; JSON gives an array of objects with itemId, version, kind (added, changed, \
            deleted), recordedAt and the change; CSV gives the raw columns of item_events.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var item: ItemIDArgument

    @Option(help: "Output format.")
    var format: OutputFormat = .table

    func run() throws {
        let store = try database.openStoreForReading(.itemHistory)
        let items = store.items
        let itemID = try items.resolveHistoryID(item.id)
        switch format {
        case .table:
            Output.lines(Presentation.history(try items.history(id: itemID)))
        case .json:
            Output.line(JSONText.array(try items.history(id: itemID).map(JSONPresentation.object(for:))))
        case .csv:
            let (names, rows) = try items.historyColumns(id: itemID)
            Output.write(CSVText.record(names))
            for row in rows { Output.write(CSVText.record(row)) }
        }
    }
}
