import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom items show`: one item in full.
struct ShowItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one item.",
        discussion: """
            ID may be the full id or a unique prefix of at least 4 characters, in any letter case. \
            The version counts the item's changes (1 when added); `items update --if-version` \
            takes it.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var item: ItemIDArgument

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func run() throws {
        try ItemReads.show(item.id, format: format, database: database.choice)
    }
}
