import ArgumentParser
import StockroomStore

/// `stockroom draft save`: turns a draft into an item.
struct SaveDraft: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save a draft as a new item and print the item's id.",
        discussion: "The item is inserted and the draft deleted in one transaction. A blank name is refused (exit \(Failure.Code.dataError.rawValue)) and the draft kept."
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var draft: DraftIDArgument

    func run() throws {
        let store = try database.openStore()
        let item = try store.write {
            try store.drafts.save(id: try store.drafts.resolveID(draft.draftID))
        }
        Output.line(item.id.lowercasedString)
    }
}
