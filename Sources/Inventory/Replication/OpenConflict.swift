import FoundationEssentials

/// A ``Conflict`` as a person resolves it, in a ``Draft/resolving(_:conflict:)`` draft: what
/// they are shown, what the replica wanted, who wanted it, when and why. It is what the
/// drafts table keeps of a conflict (migration 0012), on the hub and on every replica.
///
/// It keeps the two items a person decides between rather than the replica's whole intent:
/// ``wanted`` is ``Conflict/proposedItem``, already on top of ``shown``. ``conflict(id:)``
/// gives back the ``Conflict`` the rules judge a resolution against (``MergeRules`` reads its
/// id, its hub item and the item shown), and ``choice(saving:)`` is ``Conflict/choice(saving:)``.
///
/// ```swift
/// let draft = Draft.resolution(of: conflict)   // starts as the wanted item
/// ```
public struct OpenConflict: Hashable, Sendable {
    /// The item as a person first sees it: the hub's, or, when the hub deleted it meanwhile
    /// (``hubHoldsItem`` false), the replica's last copy of it.
    public let shown: Item
    /// Whether ``shown`` is the hub's item; false when the hub no longer holds the item.
    public let hubHoldsItem: Bool
    /// What the replica wanted, on top of ``shown`` (``Conflict/proposedItem``); nil when it
    /// wanted the item deleted.
    public let wanted: Item?
    /// The replica the change came from.
    public let origin: UUID
    /// When the change was made there, by that replica's clock (ISO-8601 UTC): shown, never
    /// compared.
    public let madeAt: String
    /// Why the change could not be applied as meant.
    public let reason: ConflictReason.Case
    /// The adjustment by N that caused an ``ConflictReason/Case/oversold`` or
    /// ``ConflictReason/Case/quantityOverflow`` conflict; nil for the other reasons.
    public let adjustment: Int?
    /// For ``ConflictReason/Case/oversold``, how many units were missing; nil otherwise.
    public let missing: Int?

    /// A conflict as stored. `adjustment` is for `oversold` and `quantity_overflow` only, and
    /// `missing` for `oversold` only (the drafts table's CHECKs refuse anything else); `wanted`
    /// and `shown` are about the same item (their ids are the item's).
    public init(shown: Item, hubHoldsItem: Bool, wanted: Item?, origin: UUID, madeAt: String,
                reason: ConflictReason.Case, adjustment: Int? = nil, missing: Int? = nil) {
        self.shown = shown
        self.hubHoldsItem = hubHoldsItem
        self.wanted = wanted
        self.origin = origin
        self.madeAt = madeAt
        self.reason = reason
        self.adjustment = adjustment
        self.missing = missing
    }

    /// `conflict` as a person resolves it.
    ///
    /// A conflict whose every item is missing (an addition the hub refused because it had
    /// deleted an item of that id, which carries no copy) shows the item the replica added.
    public init(_ conflict: Conflict) {
        let proposed = conflict.proposedItem
        var added: Item?
        if case .deletedBeforeChange(let change) = conflict.reason { added = MergeRules.replayed(change, on: nil) }
        // Every conflict MergeRules opens has an item to show; the empty item is a last resort
        // for a hand-made Conflict with none, so that it still reaches a person.
        let shown = conflict.shownItem ?? proposed ?? added ?? Item(id: conflict.itemID, name: "")
        let adjustment: Int?, missing: Int?
        switch conflict.reason {
        case .oversold(let units, let short): (adjustment, missing) = (units, short)
        case .quantityOverflow(let units): (adjustment, missing) = (units, nil)
        case .overtaken, .changedBeforeDelete, .deletedBeforeChange, .resolvedMeanwhile: (adjustment, missing) = (nil, nil)
        }
        self.init(shown: OpenConflict.identified(shown, as: conflict.itemID), hubHoldsItem: conflict.hubItem != nil,
                  wanted: proposed.map { OpenConflict.identified($0, as: conflict.itemID) },
                  origin: conflict.origin, madeAt: conflict.madeAt, reason: conflict.reason.case,
                  adjustment: adjustment, missing: missing)
    }

    /// The item the conflict is about.
    public var itemID: UUID { shown.id }

    /// The item a resolving draft starts as: ``wanted``, or ``shown`` when a delete was wanted,
    /// so that `draft save` alone takes the replica's values.
    public var startingItem: Item { wanted ?? shown }

    /// The conflict with `id` as the rules judge a resolution of it: its hub item (``shown``
    /// when ``hubHoldsItem``, else nil), the replica's copy (``shown`` otherwise), and a reason
    /// of the same case whose ``Conflict/proposedItem`` is ``wanted``. What the replica's
    /// original intent carried beyond ``wanted`` (the overtaken fields' old values) is not
    /// kept, and no rule judging a resolution reads it.
    public func conflict(id: UUID) -> Conflict {
        Conflict(id: id, itemID: itemID, hubItem: hubHoldsItem ? shown : nil, replicaCopy: hubHoldsItem ? nil : shown,
                 origin: origin, madeAt: madeAt, reason: rebuiltReason)
    }

    /// The choice that saving `item` as the draft's item makes (``Conflict/choice(saving:)``):
    /// the item as saved, or a delete when the replica wanted the item deleted and the person
    /// left it as shown.
    public func choice(saving item: Item) -> ConflictChoice {
        conflict(id: itemID).choice(saving: item)
    }

    /// A reason of ``reason``'s case whose proposed item, on ``shown``, is ``wanted``.
    private var rebuiltReason: ConflictReason {
        // The change from what is shown to what is wanted, as a set; an unchanged item as an
        // adjustment by 0, which leaves it as it is; a wanted delete as a delete.
        let change: IntentChange = switch wanted.map({ ItemChanges(from: shown, to: $0) }) {
        case .none: .delete(lastPulledVersion: 0)
        case .some(.none): .adjust(by: 0)
        case .some(.some(let changes)): .set(changes)
        }
        switch reason {
        case .overtaken:
            if case .set(let changes) = change { return .overtaken(changes) }
            return .resolvedMeanwhile(wanted.map(ConflictChoice.item) ?? .delete)
        case .oversold: return .oversold(adjustment: adjustment ?? 0, missing: missing ?? 0)
        case .quantityOverflow: return .quantityOverflow(adjustment: adjustment ?? 0)
        case .changedBeforeDelete: return .changedBeforeDelete
        case .deletedBeforeChange: return .deletedBeforeChange(change)
        case .resolvedMeanwhile: return .resolvedMeanwhile(wanted.map(ConflictChoice.item) ?? .delete)
        }
    }

    /// `item` under the conflict's item id (a resolution chosen elsewhere may carry another).
    private static func identified(_ item: Item, as id: UUID) -> Item {
        if item.id == id { return item }
        return Item.assembling(id: id, name: item.name, color: item.color, status: item.status) { $0.text(in: item) }
    }
}
