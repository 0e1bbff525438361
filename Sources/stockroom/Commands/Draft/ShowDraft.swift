import ArgumentParser
import Inventory

/// `stockroom draft show`: one draft in full.
struct ShowDraft: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one draft.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The draft's id or id prefix.", valueName: "draft-id"))
    var draftID: String

    @Option(help: "Output format (table or json).")
    var format: OutputFormat = .table

    func validate() throws {
        if format == .csv { throw ValidationError("draft show prints table or json") }
    }

    func run() throws {
        let drafts = try database.openStore().drafts
        let entry = try drafts.draft(id: try drafts.resolveID(draftID))
        switch format {
        case .json: Output.line(JSONPresentation.object(for: entry))
        case .table, .csv: Output.lines(Presentation.details(for: entry))
        }
    }
}
