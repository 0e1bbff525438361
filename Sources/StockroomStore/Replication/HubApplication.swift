import FoundationEssentials
import Inventory

/// What one pushed batch did on the hub.
package struct AppliedBatch: Equatable, Sendable {
    /// Intents applied now (not counting those the hub had already applied).
    package var applied = 0
    /// Intents the hub had already applied: a retry after a lost answer.
    package var alreadyApplied = 0
    /// Conflicts opened for a person.
    package var conflictsOpened = 0
}

/// A hub applying replicas' intents with ``MergeRules``, on either engine: the one place where
/// the rules' decisions become rows. Inside the caller's transaction, one intent at a time in
/// the order given (the replica's), so that the hub's commit order is the order it judged in.
struct HubApplication<Connection: StoreConnection> {
    let connection: Connection

    /// Applies `batch`, skipping what the hub already applied.
    func apply(_ batch: [OutboxIntent]) throws -> AppliedBatch {
        // Once for the batch, so that its row locks below never wait on a writer that waits
        // on the turn.
        try connection.takeHistoryTurn()
        var outcome = AppliedBatch()
        let now = Timestamp.now()
        for pushed in batch {
            if try isApplied(pushed.intent.id) {
                outcome.alreadyApplied += 1
                continue
            }
            let intent = try hubIntent(pushed)
            let hub = try state(of: intent.itemID, origin: intent.origin)
            var open: Conflict?
            if case .resolve(let conflictID, _) = intent.change {
                open = try ConflictDrafts(connection: connection).conflict(id: conflictID)
            }
            let decision = MergeRules.decide(intent, hub: hub, openConflict: open)
            try write(decision, for: intent, now: now)
            try remember(intent)
            outcome.applied += 1
            if decision.opens != nil { outcome.conflictsOpened += 1 }
        }
        return outcome
    }

    /// Writes what the rules decided: the item's row (its history event carrying the intent's
    /// origin and id, through `item_event_context`, unless `recordingOrigin` is false: a
    /// resolution made on the hub itself is a local change), and the conflict opened or closed.
    func write(_ decision: MergeDecision, for intent: Intent, now: String, recordingOrigin: Bool = true) throws {
        if let closed = decision.closes {
            try ConflictDrafts(connection: connection).close(id: closed)
        }
        switch decision.write {
        case .none:
            break
        case .insert(let item):
            try withEventContext(itemID: item.id, for: intent, recording: recordingOrigin) {
                try connection.withStatement(ItemsTable.insertSQL) { statement in
                    try ItemsTable.bindInsert(item, now: now, to: statement)
                }
            }
        case .update(let item):
            try withEventContext(itemID: item.id, for: intent, recording: recordingOrigin) {
                let layout = ItemsTable.updateLayout
                try connection.withStatement(layout.sql) { statement in
                    var row = RowBinder(statement, at: layout.item)
                    try ItemCodec.bind(item, to: &row)
                    try statement.bind(now, at: layout.updatedAt)
                    try statement.run()
                }
            }
        case .delete:
            try withEventContext(itemID: intent.itemID, for: intent, recording: recordingOrigin) {
                try connection.withStatement(ItemsTable.deleteByID) { statement in
                    try statement.bind(intent.itemID, at: 0)
                    try statement.run()
                }
            }
        }
        if let opened = decision.opens {
            try ConflictDrafts(connection: connection).open(opened)
        }
    }

    /// Runs `body` with the intent's origin and id in `item_event_context` for the item written
    /// (`itemID`: a restored item has an id of its own), for the history event the write
    /// appends (migration 0011).
    private func withEventContext(itemID: UUID, for intent: Intent, recording: Bool, _ body: () throws -> Void) throws {
        guard recording else { return try body() }
        try connection.declaring(EventDetails(adjustedBy: nil, origin: intent.origin, intentID: intent.id), for: itemID, body)
    }

    private func isApplied(_ id: UUID) throws -> Bool {
        try connection.withStatement(SyncAppliedTable.selectApplied) { statement in
            try statement.bind(id, at: 0)
            return try statement.step()
        }
    }

    private func remember(_ intent: Intent) throws {
        try connection.withStatement(SyncAppliedTable.insert) { statement in
            try statement.bind(intent.id, at: 0)
            try statement.bind(intent.origin, at: 1)
            try statement.bind(Timestamp.now(), at: 2)
            try statement.run()
        }
    }

    /// The intent as the rules judge it: a delete carries the hub's version of the item at the
    /// position the replica had pulled.
    private func hubIntent(_ pushed: OutboxIntent) throws -> Intent {
        guard case .delete = pushed.intent.change, let position = pushed.lastPulledPosition else { return pushed.intent }
        let version = try connection.withStatement("""
            SELECT coalesce(max(version), 0) FROM \(ItemEventsTable.name) WHERE item_id = ? AND position <= ?
            """) { statement in
            try statement.bind(pushed.intent.itemID, at: 0)
            try statement.bind(position, at: 1)
            _ = try statement.step()
            return statement.int(at: 0)
        }
        let intent = pushed.intent
        return Intent(id: intent.id, itemID: intent.itemID, origin: intent.origin, madeAt: intent.madeAt,
                      replicaCopy: intent.replicaCopy, change: .delete(lastPulledVersion: version))
    }

    /// What the hub holds of the item, its row locked until the batch commits.
    func state(of itemID: UUID, origin: UUID) throws -> HubItemState {
        let item = try connection.withStatement(ItemsTable.selectByID + connection.dialect.lockingRead) { statement in
            try statement.bind(itemID, at: 0)
            return try statement.step() ? try ItemsTable.decode(statement) : nil
        }
        let (versions, byOthers) = try connection.withStatement("""
            SELECT count(*), coalesce(max(CASE WHEN origin IS NULL OR origin <> ? THEN version END), 0)
            FROM \(ItemEventsTable.name) WHERE item_id = ?
            """) { statement in
            try statement.bind(origin, at: 0)
            try statement.bind(itemID, at: 1)
            _ = try statement.step()
            return (statement.int(at: 0), statement.int(at: 1))
        }
        let presence: HubItemState.Presence = item.map { .present($0) } ?? (versions > 0 ? .deleted : .absent)
        return HubItemState(presence: presence, lastVersionByOthers: byOthers)
    }
}
