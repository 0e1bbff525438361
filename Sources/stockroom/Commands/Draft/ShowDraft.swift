import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom draft show`: one draft in full.
struct ShowDraft: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one draft.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The draft's id or id prefix.", valueName: "draft-id"))
    var draftID: String

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func run() throws {
        let drafts = try database.openStoreForReading(.drafts).drafts
        let entry = try drafts.draft(id: try drafts.resolveID(draftID))
        switch format {
        case .json: Output.line(JSONPresentation.object(for: entry))
        case .table: Output.lines(Presentation.details(for: entry))
        }
    }
}
