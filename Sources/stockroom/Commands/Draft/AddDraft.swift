import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom draft add`: opens a draft for a new item.
struct AddDraft: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Start a draft for a new item and print the draft's id.",
        discussion: "The draft starts with an empty name, no colour and quantity 1; options set fields now."
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The item's name (may stay empty until saving).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The item's colour.", valueName: "color"))
    var color: Color?

    @OptionGroup var status: StatusOptions

    @OptionGroup var texts: OptionalTextOptions

    func validate() throws {
        try NameRule.requireValid(name)
    }

    func run() throws {
        var edit = ItemEdit(name: name, color: color.map { .set($0) }, status: status.status)
        let given = try texts.texts()
        for field in OptionalTextField.allCases {
            if let text = given[field.rawValue] { field.set(text, in: &edit) }
        }
        let entry = try database.openStore().drafts.startAdding(edit)
        Output.line(entry.id.lowercasedString)
    }
}
