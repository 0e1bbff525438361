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
    /// The items the batch wrote (inserted, updated or deleted): a pull after it brings them
    /// with the changes, since each has a history event after the replica's position.
    package var written = Set<UUID>()
}

/// A hub applying replicas' intents with ``MergeRules``, on either engine: the one place where
/// the rules' decisions become rows. Inside the caller's transaction, in the order given (the
/// replica's), so that the hub's commit order is the order it judged in.
///
/// A pushed batch is applied set-wise, in a number of statements that does not grow with its
/// size (on a server each statement is a round trip; ``HubBatchTables``): the batch is staged
/// in a temporary table, what the hub holds of its items is read in a few statements, each
/// intent is judged in order in memory (each decision updating what the next one sees), and
/// the decisions are written in a few more. An item written twice in one batch is written in
/// rounds, so that each write is its own history event carrying its own intent.
struct HubApplication<Connection: StoreConnection> {
    let connection: Connection

    /// Applies `batch`, skipping what the hub already applied.
    func apply(_ batch: [OutboxIntent]) throws -> AppliedBatch {
        // Once for the batch, so that its row locks below never wait on a writer that waits
        // on the turn.
        try connection.takeHistoryTurn()
        var outcome = AppliedBatch()
        guard let origin = batch.first?.intent.origin else { return outcome }
        let staged = HubBatchTables(connection: connection)
        try staged.stage(batch)
        let applied = try staged.appliedIntents()
        var held = try staged.heldItems()
        // Every intent of a batch is one replica's: what the others last wrote is as read,
        // whatever the batch writes.
        let versionsByOthers = try staged.lastVersionsByOthers(than: origin)
        let deleteVersions = try batch.contains { $0.lastPulledPosition != nil } ? staged.versionsAtPulledPositions() : [:]
        // The items the hub held once: without a row, deleted rather than absent.
        var withHistory = Set(versionsByOthers.keys)

        let now = Timestamp.now()
        var writes: [HubWrite] = []
        var conflictChanges: [MergeDecision] = []
        var openedHere: [UUID: Conflict] = [:], closedHere = Set<UUID>()
        var remembered: [Intent] = []
        for pushed in batch {
            if applied.contains(pushed.intent.id) {
                outcome.alreadyApplied += 1
                continue
            }
            let intent = hubIntent(pushed, version: deleteVersions[pushed.intent.id] ?? 0)
            let presence: HubItemState.Presence = held[intent.itemID].map { .present($0) }
                ?? (withHistory.contains(intent.itemID) ? .deleted : .absent)
            let hub = HubItemState(presence: presence, lastVersionByOthers: versionsByOthers[intent.itemID] ?? 0)
            var open: Conflict?
            if case .resolve(let conflictID, _) = intent.change, !closedHere.contains(conflictID) {
                open = try openedHere[conflictID] ?? ConflictDrafts(connection: connection).conflict(id: conflictID)
            }
            let decision = MergeRules.decide(intent, hub: hub, openConflict: open)
            switch decision.write {
            case .none:
                break
            case .insert(let item), .update(let item):
                held[item.id] = item
                withHistory.insert(item.id)
                outcome.written.insert(item.id)
                writes.append(HubWrite(itemID: item.id, write: decision.write, intent: intent))
            case .delete:
                held[intent.itemID] = nil
                withHistory.insert(intent.itemID)
                outcome.written.insert(intent.itemID)
                writes.append(HubWrite(itemID: intent.itemID, write: decision.write, intent: intent))
            }
            if let closed = decision.closes {
                closedHere.insert(closed)
                openedHere[closed] = nil
            }
            if let opened = decision.opens {
                openedHere[opened.id] = opened
                closedHere.remove(opened.id)
            }
            if decision.closes != nil || decision.opens != nil { conflictChanges.append(decision) }
            remembered.append(intent)
            outcome.applied += 1
            if decision.opens != nil { outcome.conflictsOpened += 1 }
        }

        for round in HubWrite.rounds(of: writes) {
            try staged.write(round, now: now)
        }
        let drafts = ConflictDrafts(connection: connection)
        for decision in conflictChanges {
            if let closed = decision.closes { try drafts.close(id: closed) }
            if let opened = decision.opens { try drafts.open(opened) }
        }
        try staged.remember(remembered, at: now)
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
        try connection.declaring(Self.eventDetails(of: intent), for: itemID, body)
    }

    /// What the history event of an intent's write says beyond its values: the replica and the
    /// intent, and for an adjustment how many units were meant, as on the replica where it was
    /// made ("sold 3"), also when fewer were in stock (the conflict counts the missing).
    static func eventDetails(of intent: Intent) -> EventDetails {
        var adjustedBy: Int?
        if case .adjust(let units) = intent.change { adjustedBy = units }
        return EventDetails(adjustedBy: adjustedBy, origin: intent.origin, intentID: intent.id)
    }

    /// The intent as the rules judge it: a delete carries the hub's version of the item at the
    /// position the replica had pulled (`version`, read for the whole batch:
    /// ``HubBatchTables/versionsAtPulledPositions()``).
    private func hubIntent(_ pushed: OutboxIntent, version: Int) -> Intent {
        guard case .delete = pushed.intent.change, pushed.lastPulledPosition != nil else { return pushed.intent }
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
