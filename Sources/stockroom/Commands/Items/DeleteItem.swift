import ArgumentParser

/// `stockroom items delete`: removes an item.
struct DeleteItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an item.",
        discussion: "Drafts duplicated from the item keep their copy and can still be saved."
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The item's id or id prefix.", valueName: "id"))
    var id: String

    func validate() throws {
        try IDArgument.validate(id, .item)
    }

    func run() throws {
        let store = try database.openStore()
        try store.write {
            try store.items.delete(id: try store.items.resolveID(id))
        }
    }
}
