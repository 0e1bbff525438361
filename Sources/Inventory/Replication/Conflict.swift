import FoundationEssentials

/// An intent the hub could not apply as it was meant, kept for a person to resolve: nothing is
/// resolved silently. It is to reach every replica as a resolving draft (issue 35, next part).
///
/// An item may have several open conflicts, one for each intent that caused one: each names its
/// own replica, time and wanted values, and each is resolved on its own. Its ``id`` is the id of
/// the intent that caused it, so that a retried push cannot open it twice.
public struct Conflict: Identifiable, Hashable, Sendable {
    /// The id of the intent that caused the conflict.
    public let id: UUID
    /// The item it is about.
    public let itemID: UUID
    /// The hub's item once the intent was judged (an oversold item is already out of stock
    /// here); nil when the hub holds no such item (deleted meanwhile).
    public let hubItem: Item?
    /// The replica's copy of the item before its change; nil for an addition.
    public let replicaCopy: Item?
    /// The replica the intent came from.
    public let origin: UUID
    /// When the change was made there, by that replica's clock.
    public let madeAt: String
    /// Why the intent could not be applied as meant, with what was wanted.
    public let reason: ConflictReason

    /// A conflict as the hub records it.
    public init(id: UUID, itemID: UUID, hubItem: Item?, replicaCopy: Item?, origin: UUID, madeAt: String,
                reason: ConflictReason) {
        self.id = id
        self.itemID = itemID
        self.hubItem = hubItem
        self.replicaCopy = replicaCopy
        self.origin = origin
        self.madeAt = madeAt
        self.reason = reason
    }

    /// The item as a person first sees it: the hub's, or for an item the hub deleted meanwhile
    /// the replica's last copy of it.
    public var shownItem: Item? { hubItem ?? replicaCopy }

    /// What the replica wanted, on top of ``shownItem``: the item a resolving draft starts as,
    /// so that `draft save` alone takes the replica's values. Nil when what it wanted was to
    /// delete the item.
    public var proposedItem: Item? {
        switch reason {
        case .overtaken(let wanted):
            return shownItem.map { wanted.applied(to: $0) }
        case .oversold, .quantityOverflow:
            // The goods left (or arrived); the hub already holds the nearest true state. The
            // person recounts: the draft starts as the hub's item.
            return shownItem
        case .changedBeforeDelete:
            return nil
        case .deletedBeforeChange(let change):
            return replicaCopy.flatMap { MergeRules.replayed(change, on: $0) }
        case .resolvedMeanwhile(let choice):
            switch choice {
            case .keepHub: return shownItem
            case .item(let item): return item
            case .delete: return nil
            }
        }
    }

    /// The choice that saving `item` as the resolving draft's item makes: the item as saved,
    /// or a delete when the replica wanted the item deleted and the person left it as shown.
    public func choice(saving item: Item) -> ConflictChoice {
        if proposedItem == nil, item == shownItem { return .delete }
        return .item(item)
    }
}

/// Why an intent became a ``Conflict``, with what the replica wanted.
public enum ConflictReason: Hashable, Sendable {
    /// A set whose replaced values the hub no longer held: the overtaken fields only, each from
    /// the value the replica replaced to the value it wanted. Fields that still matched were
    /// applied.
    case overtaken(ItemChanges)
    /// An adjustment that would have taken stock below zero: applied down to out of stock, and
    /// `missing` units are unaccounted for ("3 sold at the stall while the hub had 2": missing 1).
    case oversold(adjustment: Int, missing: Int)
    /// An adjustment whose total does not fit the quantity's integer: nothing was applied.
    case quantityOverflow(adjustment: Int)
    /// A delete of an item that others changed after the replica last pulled it.
    case changedBeforeDelete
    /// A change to an item the hub deleted meanwhile (or never held): the change wanted.
    case deletedBeforeChange(IntentChange)
    /// A resolution of a conflict that another resolution reached the hub with first: the
    /// choice that came second.
    case resolvedMeanwhile(ConflictChoice)

    /// The tag of the case, as stored and shown.
    public enum Case: String, CaseIterable, Sendable {
        /// ``ConflictReason/overtaken(_:)``
        case overtaken
        /// ``ConflictReason/oversold(adjustment:missing:)``
        case oversold
        /// ``ConflictReason/quantityOverflow(adjustment:)``
        case quantityOverflow = "quantity_overflow"
        /// ``ConflictReason/changedBeforeDelete``
        case changedBeforeDelete = "changed_before_delete"
        /// ``ConflictReason/deletedBeforeChange(_:)``
        case deletedBeforeChange = "deleted_before_change"
        /// ``ConflictReason/resolvedMeanwhile(_:)``
        case resolvedMeanwhile = "resolved_meanwhile"
    }

    /// Which case this is.
    public var `case`: Case {
        switch self {
        case .overtaken: .overtaken
        case .oversold: .oversold
        case .quantityOverflow: .quantityOverflow
        case .changedBeforeDelete: .changedBeforeDelete
        case .deletedBeforeChange: .deletedBeforeChange
        case .resolvedMeanwhile: .resolvedMeanwhile
        }
    }
}
