import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom draft edit`: changes fields of an open draft.
struct EditDraft: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a draft's name, colour or status, and print it.",
        discussion: "The name may be set to empty while editing; `draft save` refuses a blank name."
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The draft's id or id prefix.", valueName: "draft-id"))
    var draftID: String

    func validate() throws {
        try IDArgument.validate(draftID, .draft)
    }

    @OptionGroup var change: ItemChangeOptions

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func run() throws {
        let store = try database.openStore()
        let entry = try store.write {
            try store.drafts.edit(id: try store.drafts.resolveID(draftID), with: change.edit)
        }
        switch format {
        case .json: Output.line(JSONPresentation.object(for: entry))
        case .table: Output.line(Presentation.row(for: entry.draft.item))
        }
    }
}
