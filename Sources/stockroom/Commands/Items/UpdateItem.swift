import ArgumentParser
import Inventory
import StockroomStore

/// `stockroom items update`: changes some fields of an item.
struct UpdateItem: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change an item's name, colour or status, and print it.",
        discussion: """
            Fields not mentioned stay as they are. Each update that changes something is one new \
            version of the item (see `items history`). With --if-version N the update happens \
            only while the item is still at version N; otherwise nothing changes and the command \
            exits \(Failure.Code.versionConflict.rawValue), saying which version the item is at now: read, decide, then update with \
            --if-version to change an item safely while others may be changing it too.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The item's id or id prefix.", valueName: "id"))
    var id: String

    @OptionGroup var change: ItemChangeOptions

    @Option(help: ArgumentHelp("Update only if the item is still at this version (see `items show`).", valueName: "n"))
    var ifVersion: Int?

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func validate() throws {
        try IDArgument.validate(id, .item)
        if let ifVersion, ifVersion < 1 { throw ValidationError("--if-version must be at least 1") }
        // Unlike a draft, an item in the inventory never has a blank name.
        try NameRule.requireNotBlank(change.name)
    }

    func run() throws {
        let store = try database.openStore()
        let updated = try store.write {
            try store.items.update(id: try store.items.resolveID(id), with: change.edit, ifVersion: ifVersion)
        }
        switch format {
        case .json: Output.line(JSONPresentation.object(for: updated))
        case .table: Output.line(Presentation.row(for: updated))
        }
    }
}
