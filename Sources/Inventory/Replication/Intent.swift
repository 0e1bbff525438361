import FoundationEssentials

/// One change a replica made to one item, as it travels to the hub: not the state it left
/// behind, but what was meant, so that the hub can apply it to whatever it holds by then.
///
/// Every change on a replica becomes an intent, whoever made it (the CLI, the web front, the
/// library or the `sqlite3` shell). The hub applies each intent once, in its own commit order,
/// through ``MergeRules``; an intent it already applied (its ``id`` is remembered) is not
/// applied again, so a push retried after a lost answer is harmless.
///
/// ```swift
/// let sale = Intent(itemID: item.id, origin: stall, madeAt: "2026-11-28T10:00:00.000Z",
///                   replicaCopy: item, change: .adjust(by: -1))
/// ```
public struct Intent: Identifiable, Hashable, Sendable {
    /// The intent's own id, stable from the moment it was made: the hub remembers it, and it
    /// names the conflict the intent may cause (``Conflict/id``).
    public let id: UUID
    /// The item the intent is about.
    public let itemID: UUID
    /// The replica that made it.
    public let origin: UUID
    /// When it was made there, by the replica's clock (ISO-8601 UTC). Shown to people; no rule
    /// reads it, because a replica's clock may be wrong.
    public let madeAt: String
    /// The replica's copy of the item just before the change; nil for ``IntentChange/add(_:)``.
    /// A conflict about an item the hub deleted meanwhile shows this copy.
    public let replicaCopy: Item?
    /// What was meant.
    public let change: IntentChange

    /// An intent with the given id (a new time-ordered one by default).
    public init(id: UUID = UUID.version7(), itemID: UUID, origin: UUID, madeAt: String,
                replicaCopy: Item?, change: IntentChange) {
        self.id = id
        self.itemID = itemID
        self.origin = origin
        self.madeAt = madeAt
        self.replicaCopy = replicaCopy
        self.change = change
    }
}

/// What an ``Intent`` means. Each case is one kind of change a person makes; the hub judges each
/// by its own rule (``MergeRules``).
public enum IntentChange: Hashable, Sendable {
    /// A new item, under an id the replica made.
    case add(Item)
    /// Fields set to new values, each carrying the value it replaced. A write from the `sqlite3`
    /// shell is always a set.
    case set(ItemChanges)
    /// The quantity in stock moved by a number of units (a sale, a delivery): `items adjust`, the
    /// HTTP adjustments and the counter's buttons. Adjustments always add up at the hub.
    case adjust(by: Int)
    /// The item deleted, carrying the hub version the replica last pulled of it: a change the
    /// replica never saw makes the delete a conflict.
    case delete(lastPulledVersion: Int)
    /// A conflict resolved by a person, carrying the value chosen.
    case resolve(conflictID: UUID, choice: ConflictChoice)

    /// The tag of the case, as stored and shown.
    public enum Case: String, CaseIterable, Sendable {
        /// ``IntentChange/add(_:)``
        case add
        /// ``IntentChange/set(_:)``
        case set
        /// ``IntentChange/adjust(by:)``
        case adjust
        /// ``IntentChange/delete(lastPulledVersion:)``
        case delete
        /// ``IntentChange/resolve(conflictID:choice:)``
        case resolve
    }

    /// Which case this is.
    public var `case`: Case {
        switch self {
        case .add: .add
        case .set: .set
        case .adjust: .adjust
        case .delete: .delete
        case .resolve: .resolve
        }
    }
}

/// What a person chose for a conflict: saving its draft, editing then saving it, or cancelling it.
public enum ConflictChoice: Hashable, Sendable {
    /// Keep what the hub holds (`draft cancel`).
    case keepHub
    /// The item as the person saved it: the replica's wanted values, or their own edit.
    case item(Item)
    /// Delete the item (saving a conflict whose wanted change was a delete).
    case delete
}
