import ArgumentParser
import Inventory

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

    @Option(help: ArgumentHelp("The new name.", valueName: "name"))
    var name: String?

    @OptionGroup var color: ColorChangeOptions
    @OptionGroup var status: StatusOptions

    @Option(help: "Output format (table or json).")
    var format: OutputFormat = .table

    var edit: ItemEdit { ItemEdit(name: name, color: color.change, status: status.status) }

    func validate() throws {
        if edit.isEmpty { throw ValidationError("nothing to change: give --name, --color, --no-color, --quantity or --out-of-stock") }
        if format == .csv { throw ValidationError("edit prints table or json") }
    }

    func run() throws {
        let store = try database.openStore()
        let entry = try store.write {
            try store.drafts.edit(id: try store.drafts.resolveID(draftID), with: edit)
        }
        switch format {
        case .json: Output.line(JSONPresentation.object(for: entry))
        case .table, .csv: Output.line(Presentation.row(for: entry.draft.item))
        }
    }
}
