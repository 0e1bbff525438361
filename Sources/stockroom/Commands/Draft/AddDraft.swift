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

    @Option(help: ArgumentHelp("Where it is kept (at most \(ItemLocation.maximumLength) characters).", valueName: "text"))
    var location: String?

    func validate() throws {
        try NameRule.requireValid(name)
        _ = try LocationRule.parse(location)
    }

    func run() throws {
        let edit = ItemEdit(name: name, color: color.map { .set($0) }, status: status.status,
                            location: try LocationRule.parse(location).map { .set($0) })
        let entry = try database.openStore().drafts.startAdding(edit)
        Output.line(entry.id.lowercasedString)
    }
}
