import FoundationEssentials
import Inventory

/// One item as a pull brings it: the hub's row with its times, or nil when the hub holds no
/// such item (deleted).
struct PulledItem {
    let id: UUID
    let row: (item: Item, createdAt: String, updatedAt: String)?
}

/// Reading what changed on a hub since a position, on either engine, in the caller's read
/// transaction (one snapshot: the position and the rows agree).
struct HubChanges<Connection: StoreConnection> {
    let connection: Connection

    /// Rows read per statement when a whole inventory is pulled.
    static var pageSize: Int { HubProtocol.pageSize }

    private static var rowSQL: String {
        "SELECT \(ItemsTable.selectColumns), created_at, updated_at FROM \(ItemsTable.name)"
    }

    /// The hub's latest history position.
    func lastPosition() throws -> Int {
        try connection.withStatement("SELECT coalesce(max(position), 0) FROM \(ItemEventsTable.name)") { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// The items whose history has events after `position` (up to `through`), as the hub holds
    /// them now: two statements whatever their number (a round trip each on a server).
    func changedItems(after position: Int, through last: Int) throws -> [PulledItem] {
        let changed = "SELECT DISTINCT item_id FROM \(ItemEventsTable.name) WHERE position > ? AND position <= ?"
        var rows: [UUID: (item: Item, createdAt: String, updatedAt: String)] = [:]
        try connection.withStatement(Self.rowSQL + " WHERE id IN (\(changed))") { statement in
            try statement.bind(position, at: 0)
            try statement.bind(last, at: 1)
            while try statement.step() {
                let row = try Self.decode(statement)
                rows[row.item.id] = row
            }
        }
        let ids = try connection.withStatement(changed) { statement in
            try statement.bind(position, at: 0)
            try statement.bind(last, at: 1)
            var ids: [UUID] = []
            while try statement.step() { if let id = statement.uuid(at: 0) { ids.append(id) } }
            return ids
        }
        return ids.sorted { $0.lowercasedString < $1.lowercasedString }.map { PulledItem(id: $0, row: rows[$0]) }
    }

    /// The items with `ids` as the hub holds them now (nil rows for those it does not hold),
    /// in id order: one statement per `pageSize` ids (a round trip each on a server).
    func items(_ ids: Set<UUID>) throws -> [PulledItem] {
        let sorted = ids.sorted { $0.lowercasedString < $1.lowercasedString }
        var rows: [UUID: (item: Item, createdAt: String, updatedAt: String)] = [:]
        for start in stride(from: 0, to: sorted.count, by: Self.pageSize) {
            let chunk = sorted[start..<min(start + Self.pageSize, sorted.count)]
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try connection.withStatement(Self.rowSQL + " WHERE id IN (\(placeholders))") { statement in
                for (index, id) in chunk.enumerated() { try statement.bind(id, at: index) }
                while try statement.step() {
                    let row = try Self.decode(statement)
                    rows[row.item.id] = row
                }
            }
        }
        return sorted.map { PulledItem(id: $0, row: rows[$0]) }
    }

    /// Every item, `pageSize` at a time in id order, to `body`: the first pull of a replica.
    func everyItem(_ body: ([PulledItem]) throws -> Void) throws {
        var after = ""
        while true {
            let page = try page(after: after)
            guard let last = page.last else { return }
            try body(page)
            after = last.id.lowercasedString
        }
    }

    /// The `pageSize` items after the id `after` ("" for the first), in id order.
    func page(after: String) throws -> [PulledItem] {
        try connection.withStatement(Self.rowSQL + " WHERE id > ? ORDER BY id LIMIT ?") { statement in
            try statement.bind(after, at: 0)
            try statement.bind(Self.pageSize, at: 1)
            var page: [PulledItem] = []
            while try statement.step() {
                let row = try Self.decode(statement)
                page.append(PulledItem(id: row.item.id, row: row))
            }
            return page
        }
    }

    private static func decode(_ statement: Connection.Statement) throws -> (item: Item, createdAt: String, updatedAt: String) {
        let item = try ItemsTable.decode(statement)
        let count = ItemsTable.itemColumns.count
        return (item, statement.text(at: count), statement.text(at: count + 1))
    }
}

/// A replica writing what it pulled: the hub's rows, then its own unpushed intents replayed on
/// top (``MergeRules/localWrite(of:on:)``). Inside the replica's transaction, with capture off.
struct ReplicaWrites<Connection: StoreConnection> {
    let connection: Connection

    private static var upsertSQL: String {
        var columns = ColumnLayout()
        _ = columns.add(ItemCodec.columns())
        _ = columns.add("created_at")
        _ = columns.add("updated_at")
        let assignments = columns.names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(ItemsTable.name) (\(columns.list)) VALUES (\(columns.placeholders)) ON CONFLICT (\(ItemsTable.key)) DO UPDATE SET \(assignments)"
    }

    /// Makes the replica's row of `pulled` the hub's: written, or deleted.
    func write(_ pulled: PulledItem) throws {
        guard let row = pulled.row else {
            try delete(pulled.id)
            return
        }
        try clearHistoryIfGone(pulled.id)
        try upsert(row)
    }

    /// True when the replica holds no item and no history: a new replica, whose first pull
    /// has nothing of its own to replace, delete or clear.
    func holdsNothing() throws -> Bool {
        try connection.withStatement(
            "SELECT NOT EXISTS (SELECT 1 FROM \(ItemsTable.name)) AND NOT EXISTS (SELECT 1 FROM \(ItemEventsTable.name))"
        ) { statement in
            _ = try statement.step()
            return statement.int(at: 0) != 0
        }
    }

    /// Writes the hub's row of an item as the replica's, in place of any it holds; its history
    /// is the replica's triggers' to record.
    func upsert(_ row: (item: Item, createdAt: String, updatedAt: String)) throws {
        try connection.withStatement(Self.upsertSQL) { statement in
            var binder = RowBinder(statement)
            try ItemCodec.bind(row.item, to: &binder)
            try binder.bind(row.createdAt)
            try binder.bind(row.updatedAt)
            try statement.run()
        }
    }

    /// Writes what the replica's own intent does to its copy (the rules' local write).
    func replay(_ intent: Intent) throws {
        let current = try item(intent.itemID)
        switch MergeRules.localWrite(of: intent, on: current) {
        case .none:
            break
        case .insert(let item):
            try clearHistoryIfGone(item.id)
            try connection.withStatement(ItemsTable.insertSQL) { statement in
                try ItemsTable.bindInsert(item, now: Timestamp.now(), to: statement)
            }
        case .update(let item):
            let layout = ItemsTable.updateLayout
            try connection.withStatement(layout.sql) { statement in
                var row = RowBinder(statement, at: layout.item)
                try ItemCodec.bind(item, to: &row)
                try statement.bind(Timestamp.now(), at: layout.updatedAt)
                try statement.run()
            }
        case .delete:
            try delete(intent.itemID)
        }
    }

    /// The replica's item `id`, nil when it holds none.
    func item(_ id: UUID) throws -> Item? {
        try connection.withStatement(ItemsTable.selectByID) { statement in
            try statement.bind(id, at: 0)
            return try statement.step() ? try ItemsTable.decode(statement) : nil
        }
    }

    private func delete(_ id: UUID) throws {
        try connection.withStatement(ItemsTable.deleteByID) { statement in
            try statement.bind(id, at: 0)
            try statement.run()
        }
    }

    /// An item coming back that this replica deleted (the hub refused the delete) needs its
    /// id free of the replica's own history: ids are never reused within one history, and the
    /// hub keeps the whole of it (migration 0013 lets only a pull do this).
    private func clearHistoryIfGone(_ id: UUID) throws {
        let gone = try connection.withStatement("""
            SELECT NOT EXISTS (SELECT 1 FROM \(ItemsTable.name) WHERE id = ?1) AND EXISTS (SELECT 1 FROM \(ItemEventsTable.name) WHERE item_id = ?1)
            """) { statement in
            try statement.bind(id, at: 0)
            _ = try statement.step()
            return statement.int(at: 0) != 0
        }
        guard gone else { return }
        try connection.withStatement("DELETE FROM \(ItemEventsTable.name) WHERE item_id = ?") { statement in
            try statement.bind(id, at: 0)
            try statement.run()
        }
    }

    /// Deletes the items not in `temp.sync_pulled_ids` nor about to be replayed: after a whole
    /// inventory was pulled, what the hub does not hold.
    func deleteItemsNotPulled() throws {
        try connection.execute("DELETE FROM \(ItemsTable.name) WHERE id NOT IN (SELECT id FROM temp.sync_pulled_ids)")
    }
}

extension HubChanges {
    /// What an incremental pull reads: the items changed after `position` through `last`,
    /// then those of `judged` (the items a sync just pushed intents about) not among them, as
    /// the hub holds them now; a pushed item the hub wrote nothing to since the replica's
    /// position is still the hub's, and the replica's own write of it is undone.
    func pull(after position: Int, through last: Int, judged: Set<UUID>) throws -> (changed: [PulledItem], judged: [PulledItem]) {
        let changed = try changedItems(after: position, through: last)
        let rest = judged.subtracting(changed.map(\.id))
        return (changed, try items(rest))
    }
}
