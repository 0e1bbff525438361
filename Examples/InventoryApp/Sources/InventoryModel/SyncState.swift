import Foundation
import StockroomStore

/// A replica's sync state as the screen shows it: `StorePool.syncStatus()`'s answer, as a
/// value of the model's own that a preview or a test makes without a replica.
public struct SyncState: Equatable, Sendable {
    /// The hub it syncs with: a file's path, or a URI without password.
    public var hub: String
    /// The replica's id: the origin its changes carry on the hub.
    public var replica: UUID
    /// Changes waiting to be pushed.
    public var pending: Int
    /// When the last sync completed (ISO-8601 UTC), nil before the first.
    public var lastSync: String?
    /// Open conflicts: resolving drafts.
    public var conflicts: Int

    /// A state as given.
    public init(hub: String, replica: UUID, pending: Int, lastSync: String?, conflicts: Int) {
        self.hub = hub
        self.replica = replica
        self.pending = pending
        self.lastSync = lastSync
        self.conflicts = conflicts
    }

    /// The state `status` reads.
    public init(_ status: ReplicaStatus) {
        self.init(hub: status.hub, replica: status.replica, pending: status.pending, lastSync: status.lastSync,
                  conflicts: status.conflicts)
    }
}
