import ArgumentParser
import Inventory

/// `stockroom items show`: one item in full.
struct ShowItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one item.",
        discussion: "ID may be the full id or a unique prefix of at least 4 characters, in any letter case."
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The item's id or id prefix.", valueName: "id"))
    var id: String

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func run() throws {
        let items = try database.openStoreForReading(.items).items
        let item = try items.item(id: try items.resolveID(id))
        switch format {
        case .json: Output.line(JSONPresentation.object(for: item))
        case .table: Output.lines(Presentation.details(for: item))
        }
    }
}
