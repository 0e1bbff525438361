import ArgumentParser
import StockroomStore

/// `stockroom items delete`: removes an item.
struct DeleteItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an item.",
        discussion: "Drafts duplicated from the item keep their copy and can still be saved."
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var item: ItemIDArgument

    func run() throws {
        let store = try database.openStore()
        try store.write {
            try store.items.delete(id: try store.items.resolveID(item.id))
        }
    }
}
