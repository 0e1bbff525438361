import Foundation
import Inventory

/// An open conflict as the model lists it: a `resolving` draft (docs/replicas.md, "Conflicts
/// reach a person"), on the hub and on every replica after its next sync.
public struct ConflictEntry: Identifiable, Equatable, Sendable {
    /// The draft's id, which is the conflict's.
    public let id: UUID
    /// The item saving the draft takes: what the replica wanted, unless someone edited it.
    public let choice: Item
    /// What the person decides between: the hub's value, the replica's, who wanted it and when.
    public let conflict: OpenConflict

    /// The conflict `entry` resolves; nil for a draft of a new item or a duplicate.
    public init?(_ entry: IdentifiedDraft) {
        guard case .resolving(let item, let conflict) = entry.draft else { return nil }
        self.init(id: entry.id, choice: item, conflict: conflict)
    }

    /// An entry as given.
    public init(id: UUID, choice: Item, conflict: OpenConflict) {
        self.id = id
        self.choice = choice
        self.conflict = conflict
    }
}
