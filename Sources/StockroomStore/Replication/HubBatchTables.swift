import FoundationEssentials
import Inventory

/// One write a batch's decisions make: the item written (a restored item has an id of its own),
/// what is written, and the intent it applies.
struct HubWrite {
    let itemID: UUID
    let write: MergeDecision.Write
    let intent: Intent

    /// `writes` in rounds, each writing an item at most once, in the order given: an item's
    /// first write is in the first round, its second in the second, and so on. Each item's
    /// writes keep their order; writes to different items commit together, in any order.
    static func rounds(of writes: [HubWrite]) -> [[HubWrite]] {
        var rounds: [[HubWrite]] = []
        var seen: [UUID: Int] = [:]
        for write in writes {
            let round = seen[write.itemID, default: 0]
            seen[write.itemID] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(write)
        }
        return rounds
    }
}

/// A pushed batch on the hub, read and written set-wise (``HubApplication``), on either engine,
/// inside the caller's transaction: the batch staged in a temporary table, what the hub holds of
/// its items read in a few statements, the decisions written in a few more. Rows go in through
/// the engine's bulk load (``StoreConnection/bulkLoad(into:columns:_:)``: COPY on PostgreSQL,
/// one prepared INSERT on SQLite), so a batch costs the same few round trips whatever its size.
///
/// The temporary tables last as long as the connection and are emptied at each batch. Their
/// text columns take the server's default collation on PostgreSQL; compared with the tables'
/// `COLLATE "C"` columns, the column's collation is the one used, so the key indexes serve.
struct HubBatchTables<Connection: StoreConnection> {
    let connection: Connection

    private static var batch: String { "sync_batch" }
    private static var updates: String { "sync_batch_updates" }
    private static var deletes: String { "sync_batch_deletes" }
    private static var batchColumns: ColumnLayout { .of(["intent_id", "item_id", "last_pulled_position"]) }

    /// Loads `intents` into the batch's table, made or emptied first.
    func stage(_ intents: [OutboxIntent]) throws {
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS \(Self.batch) (intent_id TEXT NOT NULL, item_id TEXT NOT NULL, last_pulled_position BIGINT);
            CREATE TEMP TABLE IF NOT EXISTS \(Self.updates) AS SELECT \(ItemsTable.selectColumns) FROM \(ItemsTable.name) WHERE 1 = 0;
            CREATE TEMP TABLE IF NOT EXISTS \(Self.deletes) (id TEXT NOT NULL);
            DELETE FROM \(Self.batch); DELETE FROM \(Self.updates); DELETE FROM \(Self.deletes)
            """)
        try connection.bulkLoad(into: Self.batch, columns: Self.batchColumns) { loader in
            for pushed in intents {
                try loader.bind(pushed.intent.id, at: 0)
                try loader.bind(pushed.intent.itemID, at: 1)
                if let position = pushed.lastPulledPosition { try loader.bind(position, at: 2) } else { try loader.bindNull(at: 2) }
                try loader.endRow()
            }
        }
    }

    // MARK: - Reading

    /// The batch's intents the hub applied before: a push retried after a lost answer.
    func appliedIntents() throws -> Set<UUID> {
        try connection.withStatement("SELECT \(SyncAppliedTable.key) FROM \(SyncAppliedTable.name) WHERE \(SyncAppliedTable.key) IN (SELECT intent_id FROM \(Self.batch))") { statement in
            var ids = Set<UUID>()
            while try statement.step() { if let id = statement.uuid(at: 0) { ids.insert(id) } }
            return ids
        }
    }

    /// The batch's items the hub holds, their rows locked until the batch commits.
    func heldItems() throws -> [UUID: Item] {
        let sql = ItemsTable.selectAll + " WHERE \(ItemsTable.key) IN (SELECT item_id FROM \(Self.batch))" + connection.dialect.lockingRead
        return try connection.withStatement(sql) { statement in
            var items: [UUID: Item] = [:]
            while try statement.step() {
                let item = try ItemsTable.decode(statement)
                items[item.id] = item
            }
            return items
        }
    }

    /// For each of the batch's items with a history on the hub, the latest version written by
    /// anyone but `origin` (0 when only `origin` wrote it): ``HubItemState/lastVersionByOthers``.
    /// An item with no history is absent.
    func lastVersionsByOthers(than origin: UUID) throws -> [UUID: Int] {
        try connection.withStatement("""
            SELECT item_id, coalesce(max(CASE WHEN origin IS NULL OR origin <> ? THEN version END), 0)
            FROM \(ItemEventsTable.name) WHERE item_id IN (SELECT item_id FROM \(Self.batch)) GROUP BY item_id
            """) { statement in
            try statement.bind(origin, at: 0)
            var versions: [UUID: Int] = [:]
            while try statement.step() { if let id = statement.uuid(at: 0) { versions[id] = statement.int(at: 1) } }
            return versions
        }
    }

    /// For each of the batch's deletes, the hub's version of its item at the position the
    /// replica had pulled (absent: 0).
    func versionsAtPulledPositions() throws -> [UUID: Int] {
        try connection.withStatement("""
            SELECT b.intent_id, max(e.version) FROM \(Self.batch) AS b
            JOIN \(ItemEventsTable.name) AS e ON e.item_id = b.item_id AND e.position <= b.last_pulled_position
            WHERE b.last_pulled_position IS NOT NULL GROUP BY b.intent_id
            """) { statement in
            var versions: [UUID: Int] = [:]
            while try statement.step() { if let id = statement.uuid(at: 0) { versions[id] = statement.int(at: 1) } }
            return versions
        }
    }

    // MARK: - Writing

    /// Writes one round (each item at most once): each write's history event carries its
    /// intent's details (``HubApplication/eventDetails(of:)``) through `item_event_context`
    /// (migration 0011), filled for the round's items before the writes and emptied after.
    func write(_ round: [HubWrite], now: String) throws {
        let context = ItemEventContextTable.layout
        try connection.bulkLoad(into: ItemEventContextTable.name, columns: context.columns) { loader in
            for write in round {
                try loader.bind(write.itemID, at: context.itemID)
                var row = RowBinder(loader, at: context.details)
                try EventDetailsCodec.bind(HubApplication<Connection>.eventDetails(of: write.intent), to: &row)
                try loader.endRow()
            }
        }
        var inserted: [Item] = [], updated: [Item] = [], deleted: [UUID] = []
        for write in round {
            switch write.write {
            case .none: break
            case .insert(let item): inserted.append(item)
            case .update(let item): updated.append(item)
            case .delete: deleted.append(write.itemID)
            }
        }
        if !inserted.isEmpty {
            let layout = ItemsTable.insertLayout
            try connection.bulkLoad(into: ItemsTable.name, columns: layout.columns) { loader in
                for item in inserted {
                    var row = RowBinder(loader, at: layout.item)
                    try ItemCodec.bind(item, to: &row)
                    try loader.bind(now, at: layout.createdAt)
                    try loader.bind(now, at: layout.updatedAt)
                    try loader.endRow()
                }
            }
        }
        if !updated.isEmpty {
            try connection.bulkLoad(into: Self.updates, columns: .of(ItemsTable.itemColumns)) { loader in
                for item in updated {
                    var row = RowBinder(loader)
                    try ItemCodec.bind(item, to: &row)
                    try loader.endRow()
                }
            }
            let assignments = ItemsTable.itemColumns.dropFirst().map { "\($0) = u.\($0)" }.joined(separator: ", ")
            try connection.withStatement("""
                UPDATE \(ItemsTable.name) SET \(assignments), updated_at = ?
                FROM \(Self.updates) AS u WHERE \(ItemsTable.name).\(ItemsTable.key) = u.\(ItemsTable.key)
                """) { statement in
                try statement.bind(now, at: 0)
                try statement.run()
            }
            try connection.execute("DELETE FROM \(Self.updates)")
        }
        if !deleted.isEmpty {
            try connection.bulkLoad(into: Self.deletes, columns: .of(["id"])) { loader in
                for id in deleted {
                    try loader.bind(id, at: 0)
                    try loader.endRow()
                }
            }
            try connection.execute("DELETE FROM \(ItemsTable.name) WHERE \(ItemsTable.key) IN (SELECT id FROM \(Self.deletes))")
            try connection.execute("DELETE FROM \(Self.deletes)")
        }
        // Only this transaction's rows are there: the table is empty outside a writer's
        // transaction, and another's uncommitted rows are not this one's to see.
        try connection.execute("DELETE FROM \(ItemEventContextTable.name)")
    }

    /// Records `intents` as applied, so that a retried push skips them.
    func remember(_ intents: [Intent], at now: String) throws {
        guard !intents.isEmpty else { return }
        try connection.bulkLoad(into: SyncAppliedTable.name, columns: .of(SyncAppliedTable.columns)) { loader in
            for intent in intents {
                try loader.bind(intent.id, at: 0)
                try loader.bind(intent.origin, at: 1)
                try loader.bind(now, at: 2)
                try loader.endRow()
            }
        }
    }
}
