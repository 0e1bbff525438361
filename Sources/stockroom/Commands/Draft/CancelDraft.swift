import ArgumentParser

/// `stockroom draft cancel`: throws a draft away.
struct CancelDraft: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a draft; nothing is added.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The draft's id or id prefix.", valueName: "draft-id"))
    var draftID: String

    func validate() throws {
        try IDArgument.validate(draftID, .draft)
    }

    func run() throws {
        let store = try database.openStore()
        try store.write {
            try store.drafts.cancel(id: try store.drafts.resolveID(draftID))
        }
    }
}
