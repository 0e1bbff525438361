import FoundationEssentials
import Inventory

/// Open conflicts as the sync reads and writes them: resolving drafts (migration 0012), through
/// the drafts' own records. Inside the caller's transaction.
struct ConflictDrafts<Connection: StoreConnection> {
    let connection: Connection

    private var records: DraftRecords<Connection> { DraftRecords(connection: connection) }

    /// The open conflict `id`, nil when it is not open (resolved, or never opened).
    func conflict(id: UUID) throws -> Conflict? {
        try records.conflictDraft(id: id)?.conflict
    }

    /// Opens `conflict` as a resolving draft; nothing when it is already open.
    func open(_ conflict: Conflict) throws {
        _ = try records.open(conflict)
    }

    /// Closes the conflict `id` (deletes its resolving draft); nothing when it is not open.
    func close(id: UUID) throws {
        _ = try records.removeConflict(id: id)
    }

    /// How many conflicts are open.
    func count() throws -> Int {
        try records.openConflicts().count
    }

    /// Makes this replica's open conflicts the hub's: those resolved elsewhere go, new ones
    /// come, and those this replica resolved and has not pushed yet (`unpushed`) stay resolved
    /// here. A conflict open on both keeps this replica's draft, which a person may be editing.
    func mirror(from hubDrafts: [IdentifiedDraft], keeping unpushed: [OutboxIntent]) throws {
        let resolvedHere = Set(unpushed.compactMap { waiting -> UUID? in
            if case .resolve(let conflictID, _) = waiting.intent.change { return conflictID }
            return nil
        })
        let onHub = Set(hubDrafts.map(\.id))
        var here = Set<UUID>()
        for draft in try records.openConflicts() {
            if onHub.contains(draft.id) { here.insert(draft.id) } else { try close(id: draft.id) }
        }
        for draft in hubDrafts where !here.contains(draft.id) && !resolvedHere.contains(draft.id) {
            _ = try records.create(draft.draft, id: draft.id)
        }
    }
}
