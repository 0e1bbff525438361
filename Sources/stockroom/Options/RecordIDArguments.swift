import ArgumentParser

/// The item a command acts on, as its one positional argument: the full id or a unique prefix,
/// refused before the store is opened when it cannot be one (``IDArgument``).
struct ItemIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The item's id or id prefix.", valueName: "id"))
    var id: String

    func validate() throws {
        try IDArgument.validate(id, .item)
    }
}

/// The draft a command acts on, as its one positional argument: the full id or a unique prefix,
/// refused before the store is opened when it cannot be one (``IDArgument``).
struct DraftIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The draft's id or id prefix.", valueName: "draft-id"))
    var draftID: String

    func validate() throws {
        try IDArgument.validate(draftID, .draft)
    }
}
