import ArgumentParser
import StockroomStore

/// `stockroom draft cancel`: throws a draft away.
struct CancelDraft: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a draft; nothing is added.")

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var draft: DraftIDArgument

    func run() throws {
        let store = try database.openStore()
        try store.write {
            try store.drafts.cancel(id: try store.drafts.resolveID(draft.draftID))
        }
    }
}
