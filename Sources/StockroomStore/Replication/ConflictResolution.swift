import FoundationEssentials
import Inventory

/// A person's resolution of a conflict: saving its resolving draft (the item as edited, or a
/// delete the replica wanted) or cancelling it (the hub's value). The one place `draft save`
/// and `draft cancel` meet a `resolving` draft, on any database:
///
/// - on a replica it is an intent like any other: written here at once, as the rules' local
///   write, and queued for the hub, which judges it at the next sync;
/// - on the hub (or a standalone file) it is judged at once, by the same rules as a pushed
///   resolution, as a local change: its history event has no origin.
///
/// Inside the caller's transaction; the draft is gone when it returns.
struct ConflictResolution<Connection: StoreConnection> {
    let connection: Connection

    /// Resolves `entry`'s conflict by saving it (`saving`) or cancelling it, and returns the item
    /// as saved (the draft's item).
    @discardableResult
    func resolve(_ entry: IdentifiedDraft, saving: Bool) throws -> Item {
        guard let conflict = entry.conflict else { return entry.draft.item }
        let choice = saving ? conflict.choice(saving: entry.draft.item) : .keepHub
        if case .item(let chosen) = choice { try chosen.validate() }
        let tables = ReplicationTables(connection: connection)
        let writes = ReplicaWrites(connection: connection)
        let drafts = ConflictDrafts(connection: connection)
        let copy = try writes.item(conflict.itemID)
        if let replica = try tables.replica() {
            let intent = Intent(itemID: conflict.itemID, origin: replica.replicaID, madeAt: Timestamp.now(),
                                replicaCopy: copy, change: .resolve(conflictID: entry.id, choice: choice))
            try tables.setCapturing(false)
            try writes.replay(intent)
            try drafts.close(id: entry.id)
            try OutboxIntents(connection: connection).queue(intent)
            try tables.setCapturing(true)
        } else {
            let origin = try tables.databaseID()
            let intent = Intent(itemID: conflict.itemID, origin: origin, madeAt: Timestamp.now(),
                                replicaCopy: copy, change: .resolve(conflictID: entry.id, choice: choice))
            let hub = HubApplication(connection: connection)
            try connection.takeHistoryTurn()
            let decision = MergeRules.decide(intent, hub: try hub.state(of: conflict.itemID, origin: origin),
                                             openConflict: conflict)
            try hub.write(decision, for: intent, now: Timestamp.now(), recordingOrigin: false)
        }
        return entry.draft.item
    }
}
