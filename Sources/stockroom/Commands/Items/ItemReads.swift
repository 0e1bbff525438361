import Inventory
import StockroomStore
import TextFormats

/// What `items list` and `items show` do once their arguments are known: run by their
/// ArgumentParser commands and by the fast path (FastPath/FastPath.swift) alike, so that the
/// two print the same bytes and fail the same way.
enum ItemReads {
    /// `items list`: the items `query` selects, in `format`.
    static func list(_ query: ItemQuery, format: OutputFormat, database: DatabaseChoice) throws {
        let items = try database.openStoreForReading(.items).items
        switch format {
        case .table:
            Output.lines(Presentation.table(for: try items.list(matching: query)))
        case .json:
            var first = true
            Output.write("[")
            try items.forEachItem(matching: query) { item in
                Output.write((first ? "" : ",") + (JSONPresentation.object(for: item)))
                first = false
            }
            Output.line("]")
        case .csv:
            Output.write(CSVText.record(Output.itemCSVHeader))
            try items.forEachItem(matching: query) { item in
                Output.write(CSVText.record(Output.csvFields(for: item)))
            }
        }
    }

    /// `items show`: the item `id` (a full id or a unique prefix) with its version, in `format`.
    static func show(_ id: String, format: RecordFormat, database: DatabaseChoice) throws {
        let store = try database.openStoreForReading(.itemHistory)
        let items = store.items
        // One snapshot, so the version is the version of the item shown.
        let (item, version) = try store.read {
            let id = try items.resolveID(id)
            return (try items.item(id: id), try items.version(id: id))
        }
        switch format {
        case .json:
            Output.line(JSONPresentation.object(for: item, version: version))
        case .table: Output.lines(Presentation.details(for: item, version: version))
        }
    }
}
