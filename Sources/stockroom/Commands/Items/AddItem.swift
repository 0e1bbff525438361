import ArgumentParser
import FoundationEssentials
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

    @OptionGroup var texts: OptionalTextOptions

    func validate() throws {
        try NameRule.requireNotBlank(name)
    }

    func run() throws {
        let given = try texts.texts()
        let item = Item.assembling(id: UUID.version7(), name: name, color: color, status: status.status ?? Item.defaultStatus) {
            given[$0.rawValue]
        }
        try database.openStore().items.insert(item)
        Output.line(item.id.lowercasedString)
    }
}
