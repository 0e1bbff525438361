import FoundationEssentials
import Glibc
import Inventory
import SQLiteCore

// An import writes each item's history in the import's transaction, through ItemHistory, as
// `items add` and `items update` do: a new item gets version 1 'added' (into a database without
// items or history, all of them at once after the load: ItemHistory.addedForEveryItemSQL, the
// time being the row's updated_at all the same); an item overwritten with
// --on-conflict replace gets a 'changed' event at its next version holding exactly the fields
// that changed, or nothing when nothing did (the row is then left as it is, as `items update`
// leaves it). The event's time is the row's: its updated_at, else its created_at, else the
// import's own time; the same text the row stores, in the one format of Timestamp.
extension ItemImport {
    /// Why a row naming a stored id cannot be written under `--on-conflict fail`.
    static func existingIDProblem(_ id: UUID) -> String {
        "id \(id.lowercasedString) already exists (use --on-conflict skip or replace)"
    }

    /// Records version 1 of an item the import just inserted; returns why it could not, or nil.
    @inline(__always)
    static func recordAdded(_ item: Item, time: UnsafeBufferPointer<UInt8>, events: Statement) throws -> String? {
        defer { events.reset() }
        do {
            try ItemHistory.append(.added(item), itemID: item.id, version: 1, recordedAt: time, with: events)
        } catch let error as SQLiteError where error.isPrimaryKeyViolation {
            // History outlives an item: the id belonged to an item deleted since, and a deleted
            // item's history ends with its deletion.
            return deletedItemProblem(item.id)
        }
        return nil
    }

    /// Why a row naming the id of a deleted item (whose history is kept) cannot be written.
    static func deletedItemProblem(_ id: UUID) -> String {
        "id \(id.lowercasedString) belonged to a deleted item, whose history is kept; leave the id out to add it as a new item"
    }

    /// Overwrites stored items with rows of `--on-conflict replace`, recording what changed.
    final class Replacement<Connection: StoreConnection> {
        let connection: Connection
        /// `UPDATE items SET name = ?2, … , created_at = coalesce(?7, created_at), updated_at = ?8 WHERE id = ?1`,
        /// bound as ``ItemRepository/insertLayout``: a NULL created_at keeps the stored one.
        let update: Connection.Statement

        init(connection: Connection) throws {
            self.connection = connection
            let layout = ItemRepository.insertLayout
            let names = layout.columns.names
            let id = names[layout.item]
            let assignments = names.indices.compactMap { index -> String? in
                let placeholder = "?\(index + 1)"
                switch index {
                case layout.item: return nil
                case layout.createdAt: return "\(names[index]) = coalesce(\(placeholder), \(names[index]))"
                default: return "\(names[index]) = \(placeholder)"
                }
            }
            update = try connection.cachedStatement("UPDATE items SET \(assignments.joined(separator: ", ")) WHERE \(id) = ?\(layout.item + 1)")
        }

        /// Replaces the stored item with `item` and records the change as its next version;
        /// does nothing when no field differs. Returns why it could not, or nil.
        func replace<Events: StoreStatement>(with item: Item, created: UnsafeBufferPointer<UInt8>?, updated: UnsafeBufferPointer<UInt8>, events: Events) throws -> String? {
            // Locked first on a server (as `items update` does), so that the next version is read
            // after any other writer of this item has committed.
            let stored = try ItemRecords(connection: connection).item(id: item.id, locking: true)
            guard let changes = ItemChanges(from: stored, to: item) else { return nil }
            let version = try HistoryRecords(connection: connection).version(of: item.id)
            defer { update.reset() }
            let layout = ItemRepository.insertLayout
            var row = RowBinder(update, at: layout.item)
            try ItemCodec.bind(item, to: &row)
            if let created { try update.bindText(created, at: layout.createdAt) } else { try update.bindNull(at: layout.createdAt) }
            try update.bindText(updated, at: layout.updatedAt)
            try update.run()
            defer { events.reset() }
            try ItemHistory.append(.changed(changes), itemID: item.id, version: version + 1, recordedAt: updated, with: events)
            return nil
        }
    }
}
