import FoundationEssentials
import Inventory

/// Open conflicts as resolving drafts (migration 0012), as the sync code reads and writes
/// them. PLACEHOLDER until the conflict drafts' storage is merged: it keeps nothing.
struct ConflictDrafts<Connection: StoreConnection> {
    let connection: Connection

    /// The open conflict `id`, nil when it is not open (resolved, or never opened).
    func conflict(id: UUID) throws -> Conflict? { nil }

    /// Opens `conflict` as a resolving draft; nothing when it is already open.
    func open(_ conflict: Conflict) throws {}

    /// Closes the conflict `id` (deletes its resolving draft).
    func close(id: UUID) throws {}

    /// How many conflicts are open.
    func count() throws -> Int { 0 }

    /// Makes this database's open conflicts those of `hub`, except those `unpushed` resolves
    /// (the replica's own resolutions, not yet pushed, stay resolved here).
    func mirror<Hub: StoreConnection>(from hub: ConflictDrafts<Hub>, keeping unpushed: [OutboxIntent]) throws {}
}
