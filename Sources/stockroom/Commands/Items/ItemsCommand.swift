import ArgumentParser

/// `stockroom items …`: the inventory itself.
struct ItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Add, list, show, update, adjust and delete items, and show their history.",
        subcommands: [AddItem.self, ListItems.self, ShowItem.self, UpdateItem.self, AdjustItem.self, DeleteItem.self,
                      ItemHistoryCommand.self]
    )
}
