import Foundation
import Inventory
import StockroomStore

/// Stockroom's own repositories, exactly as the CLI uses them.
final class StockroomImplementation: DraftCycling {
    let name = "Stockroom"
    private var store: InventoryStore?

    /// `path` is a file, or a PostgreSQL URI (`--postgres`), read as `--db` reads it.
    func open(path: String) throws { store = try InventoryStore(location: DatabaseLocation(path)) }
    func close() { store = nil }

    func insert(_ items: [Item]) throws { try store!.items.insert(contentsOf: items) }

    func fetchAll() throws -> [Item] { try store!.items.everyItem() }

    func page(color: Color, namePrefix: String) throws -> [Item] {
        try store!.items.list(matching: ItemQuery(status: .inStock, color: color, namePrefix: namePrefix, limit: 50))
    }

    func draftCycle(itemID: UUID, newName: String) throws {
        let drafts = store!.drafts
        let entry = try drafts.startDuplicating(itemID: itemID)
        try drafts.edit(id: entry.id, with: ItemEdit(name: newName))
        try drafts.save(id: entry.id)
    }
}
