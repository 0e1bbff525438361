import ArgumentParser
import Inventory

/// `stockroom draft list`: the open drafts.
struct ListDrafts: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List open drafts, oldest first.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Output format (table or json).")
    var format: OutputFormat = .table

    func validate() throws {
        if format == .csv { throw ValidationError("draft list prints table or json") }
    }

    func run() throws {
        let drafts = try database.openStore().drafts.all()
        switch format {
        case .json: Output.line(JSONPresentation.array(drafts.map(JSONPresentation.object(for:))))
        case .table, .csv: Output.lines(Presentation.table(for: drafts))
        }
    }
}
