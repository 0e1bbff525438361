import ArgumentParser
import Inventory
import StockroomStore
import TextFormats

/// `stockroom draft list`: the open drafts.
struct ListDrafts: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List open drafts, oldest first.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func run() throws {
        let drafts = try database.openStoreForReading(.drafts).drafts.all()
        switch format {
        case .json: Output.line(JSONText.array(drafts.map(JSONPresentation.object(for:))))
        case .table: Output.lines(Presentation.table(for: drafts))
        }
    }
}
