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

    @Option(help: ArgumentHelp("The new name (not blank).", valueName: "name"))
    var name: String?

    @OptionGroup var color: ColorChangeOptions
    @OptionGroup var status: StatusOptions

    @Option(help: "Output format (table or json).")
    var format: OutputFormat = .table

    var edit: ItemEdit { ItemEdit(name: name, color: color.change, status: status.status) }

    func validate() throws {
        try NameRule.requireNotBlank(name)
        if edit.isEmpty { throw ValidationError("nothing to change: give --name, --color, --no-color, --quantity or --out-of-stock") }
        if format == .csv { throw ValidationError("update prints table or json") }
    }

    func run() throws {
        let store = try database.openStore()
        let updated = try store.write {
            try store.items.update(id: try store.items.resolveID(id), with: edit)
        }
        switch format {
        case .json: Output.line(JSONPresentation.object(for: updated))
        case .table, .csv: Output.line(Presentation.row(for: updated))
        }
    }
}
