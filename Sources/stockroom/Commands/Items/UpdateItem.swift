import ArgumentParser
import Inventory

/// `stockroom items update`: changes some fields of an item.
struct UpdateItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change an item's name, colour or status, and print it.",
        discussion: "Fields not mentioned stay as they are."
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The item's id or id prefix.", valueName: "id"))
    var id: String

    @OptionGroup var change: ItemChangeOptions

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func validate() throws {
        // Unlike a draft, an item in the inventory never has a blank name.
        try NameRule.requireNotBlank(change.name)
    }

    func run() throws {
        let store = try database.openStore()
        let updated = try store.write {
            try store.items.update(id: try store.items.resolveID(id), with: change.edit)
        }
        switch format {
        case .json: Output.line(JSONPresentation.object(for: updated))
        case .table: Output.line(Presentation.row(for: updated))
        }
    }
}
