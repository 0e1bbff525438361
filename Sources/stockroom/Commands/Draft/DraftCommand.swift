import ArgumentParser

/// `stockroom draft …`: items being entered before they join the inventory.
struct DraftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draft",
        abstract: "Enter new items through drafts: add or duplicate, edit, then save or cancel.",
        discussion: """
            A draft may have an empty name while it is edited; saving needs a name that is not \
            blank. Saving inserts the item and deletes the draft in one transaction. Several \
            drafts can be open at once.
            """,
        subcommands: [AddDraft.self, DuplicateDraft.self, EditDraft.self, ListDrafts.self,
                      ShowDraft.self, SaveDraft.self, CancelDraft.self, WizardDraft.self]
    )
}
