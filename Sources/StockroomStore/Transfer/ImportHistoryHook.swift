import FoundationEssentials
import Glibc
import Inventory

// An import writes no history itself: the database's triggers on `items` (migration 0004)
// record each new item's version 1 ('added', dated with the row's updated_at) and each item
// overwritten with --on-conflict replace as a 'changed' event at its next version holding
// exactly the fields that changed, dated with the time of the import (never earlier than the
// item's previous event), all in the import's transaction. A replace that changes no field
// writes nothing (no event, as `items update` leaves such an item) and is counted as skipped.
// What is left here is what the import must know of history: the ids it may not use.
extension ItemImport {
    /// Why a row naming a stored id cannot be written under `--on-conflict fail`.
    static func existingIDProblem(_ id: UUID) -> String {
        "id \(id.lowercasedString) already exists (use --on-conflict skip or replace)"
    }

    /// Why a row naming the id of a deleted item (whose history is kept) cannot be written.
    static func deletedItemProblem(_ id: UUID) -> String {
        "id \(id.lowercasedString) belonged to a deleted item, whose history is kept; leave the id out to add it as a new item"
    }

    /// What is stored under an id a row names, read with ``lookupSQL``: a stored item, a deleted
    /// one (history without a row), or nothing.
    ///
    /// `SELECT <item columns> FROM items WHERE id = ?1`, or when there is no such row, a row of
    /// NULLs whose last column says whether the id has history: one statement, the same SQL on
    /// both engines, and one round trip to a server.
    static let lookupSQL: String = {
        let columns = ItemsTable.itemColumns
        let nulls = columns.map { _ in "NULL" }.joined(separator: ", ")
        return "SELECT \(ItemsTable.selectColumns), 0 FROM \(ItemsTable.name) WHERE \(ItemsTable.key) = ?1 UNION ALL "
            + "SELECT \(nulls), 1 FROM \(ItemEventsTable.name) WHERE item_id = ?1 AND version = 1 "
            + "AND NOT EXISTS (SELECT 1 FROM \(ItemsTable.name) WHERE \(ItemsTable.key) = ?1)"
    }()

    /// What ``lookupSQL`` found for an id.
    enum StoredID {
        case none
        case stored(Item)
        case deleted
    }

    /// Runs `lookup` (``lookupSQL``) for `id`.
    static func stored<Lookup: StoreStatement>(_ id: UUID, lookup: Lookup) throws -> StoredID {
        defer { lookup.reset() }
        try lookup.bind(id, at: 0)
        guard try lookup.step() else { return .none }
        if lookup.int(at: ItemsTable.itemColumns.count) == 1 { return .deleted }
        return .stored(try ItemsTable.decode(lookup))
    }

    /// Overwrites stored items with rows of `--on-conflict replace`, one row at a time (the
    /// import into a file); the database records what changed.
    final class Replacement<Connection: StoreConnection> {
        let connection: Connection
        /// `UPDATE items SET name = ?2, … , created_at = coalesce(?7, created_at), updated_at = ?8 WHERE id = ?1`,
        /// bound as ``ItemsTable/insertLayout``: a NULL created_at keeps the stored one.
        let update: Connection.Statement
        /// Stored items overwritten so far (a row equal to its stored item is not one).
        private(set) var replaced = 0

        init(connection: Connection) throws {
            self.connection = connection
            let layout = ItemsTable.insertLayout
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
            update = try connection.cachedStatement("UPDATE \(ItemsTable.name) SET \(assignments.joined(separator: ", ")) WHERE \(id) = ?\(layout.item + 1)")
        }

        /// Replaces the stored item with `item`; does nothing when no field differs (not counted
        /// in ``replaced``). Returns why it could not, or nil.
        func replace(with item: Item, created: UnsafeBufferPointer<UInt8>?, updated: UnsafeBufferPointer<UInt8>) throws -> String? {
            // Read as `items update` reads the item it changes (``DatabaseEngine/lockingRead``),
            // which on SQLite, the only engine that replaces row by row, adds nothing: the
            // import's write transaction already holds the file. A server replaces in one
            // set-based statement after its staging COPY (ItemImport+PostgreSQL.swift).
            let stored = try ItemRecords(connection: connection).item(id: item.id, locking: true)
            guard ItemChanges(from: stored, to: item) != nil else { return nil }
            defer { update.reset() }
            let layout = ItemsTable.insertLayout
            var row = RowBinder(update, at: layout.item)
            try ItemCodec.bind(item, to: &row)
            if let created { try update.bindText(created, at: layout.createdAt) } else { try update.bindNull(at: layout.createdAt) }
            try update.bindText(updated, at: layout.updatedAt)
            try update.run()
            replaced += 1
            return nil
        }
    }
}
