import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom items add`: puts a new item straight into the inventory.
struct AddItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an item and print its id.",
        discussion: "Without --quantity or --out-of-stock the item is in stock with quantity 1."
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The item's name (not blank).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("The item's colour.", valueName: "color"))
    var color: Color?

    @OptionGroup var status: StatusOptions

    @Option(help: ArgumentHelp("Where it is kept (at most \(ItemLocation.maximumLength) characters).", valueName: "text"))
    var location: String?

    func validate() throws {
        try NameRule.requireNotBlank(name)
        _ = try LocationRule.parse(location)
    }

    func run() throws {
        let item = Item(name: name, color: color, status: status.status ?? .inStock(quantity: 1),
                        location: try LocationRule.parse(location))
        try database.openStore().items.insert(item)
        Output.line(item.id.lowercasedString)
    }
}
