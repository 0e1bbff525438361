import ArgumentParser
import StockroomStore

/// `stockroom draft duplicate`: opens a draft that copies an item.
struct DuplicateDraft: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicate",
        abstract: "Start a draft copying an item's name, colour and status, and print the draft's id.",
        discussion: "The copy gets a new id when saved. It still saves if the original is deleted meanwhile."
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The id or id prefix of the item to copy.", valueName: "item-id"))
    var itemID: String

    func validate() throws {
        try IDArgument.validate(itemID, .item)
    }

    func run() throws {
        let store = try database.openStore()
        let entry = try store.write {
            try store.drafts.startDuplicating(itemID: try store.items.resolveID(itemID))
        }
        Output.line(entry.id.lowercasedString)
    }
}
