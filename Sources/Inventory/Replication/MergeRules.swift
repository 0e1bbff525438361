import FoundationEssentials

/// What the hub holds of one item when it judges an intent about it.
public struct HubItemState: Hashable, Sendable {
    /// Whether the hub holds the item.
    public enum Presence: Hashable, Sendable {
        /// The hub never held an item with this id.
        case absent
        /// The hub holds the item, with these values.
        case present(Item)
        /// The hub held the item and it was deleted.
        case deleted
    }

    /// Whether, and how, the hub holds the item.
    public var presence: Presence
    /// The latest version of the item's history that anyone but the intent's own replica wrote
    /// (a local change on the hub, or another replica's intent); 0 when there is none.
    public var lastVersionByOthers: Int

    /// The hub's view of one item.
    public init(presence: Presence, lastVersionByOthers: Int = 0) {
        self.presence = presence
        self.lastVersionByOthers = lastVersionByOthers
    }

    /// The item, when the hub holds it.
    public var item: Item? {
        if case .present(let item) = presence { return item }
        return nil
    }
}

/// What the hub does for one intent: a write to the items, and a conflict opened or closed.
public struct MergeDecision: Hashable, Sendable {
    /// A write to one item's row.
    public enum Write: Hashable, Sendable {
        /// Nothing to write.
        case none
        /// A new item (an addition, or an item brought back by a resolution under a new id).
        case insert(Item)
        /// The item's new values.
        case update(Item)
        /// The item deleted.
        case delete
    }

    /// The write to make.
    public let write: Write
    /// A conflict to open, for a person.
    public let opens: Conflict?
    /// The id of a conflict to close: a resolution's.
    public let closes: UUID?

    /// A decision.
    public init(write: Write, opens: Conflict? = nil, closes: UUID? = nil) {
        self.write = write
        self.opens = opens
        self.closes = closes
    }

    /// True when the intent changes nothing (already applied, or already the hub's value): it
    /// is recorded as applied and writes no history event.
    public var changesNothing: Bool { write == .none && opens == nil && closes == nil }

    static let nothing = MergeDecision(write: .none)
}

/// The rules by which a hub applies replicas' intents, and a replica replays its own: pure
/// functions of what they are given, tested without a database, and the only implementation of
/// these rules that the hubs use. The hub judges intents one at a time in its commit order;
/// no rule ever reads a clock.
///
/// - Adjustments always add up: the hub adds N to the quantity it holds at that moment. One that
///   would take stock below zero is applied down to out of stock and is also a conflict.
/// - A set applies field by field: a field applies when the hub still holds the value it
///   replaced, or already holds the new one; the other fields make the item's conflict.
/// - A delete of an item others changed meanwhile is a conflict; so is a change to an item
///   deleted meanwhile.
/// - A resolution closes its conflict and applies the choice as a set from the item the person
///   saw; a resolution of a conflict already resolved is a new conflict unless it chose the same.
public enum MergeRules {
    /// The hub's decision for `intent`, given what the hub holds of the item and, for a
    /// resolution, the conflict it resolves when that is still open.
    public static func decide(_ intent: Intent, hub: HubItemState, openConflict: Conflict? = nil) -> MergeDecision {
        switch intent.change {
        case .add(let item):
            switch hub.presence {
            case .absent:
                return MergeDecision(write: .insert(item))
            case .present(let held):
                if sameValues(held, item) { return .nothing }
                let wanted = ItemChanges(from: held, to: item)
                return MergeDecision(write: .none, opens: conflict(for: intent, hub: held, reason: .overtaken(wanted!)))
            case .deleted:
                return MergeDecision(write: .none, opens: conflict(for: intent, hub: nil, reason: .deletedBeforeChange(intent.change)))
            }
        case .set(let changes):
            guard let held = hub.item else {
                return MergeDecision(write: .none, opens: conflict(for: intent, hub: nil, reason: .deletedBeforeChange(intent.change)))
            }
            return judgeSet(changes, on: held, for: intent)
        case .adjust(let units):
            guard let held = hub.item else {
                return MergeDecision(write: .none, opens: conflict(for: intent, hub: nil, reason: .deletedBeforeChange(intent.change)))
            }
            switch adjusted(held.status, by: units) {
            case .unchanged:
                return .nothing
            case .overflow:
                return MergeDecision(write: .none,
                                     opens: conflict(for: intent, hub: held, reason: .quantityOverflow(adjustment: units)))
            case .status(let status, let missing):
                var item = held
                item.status = status
                let write: MergeDecision.Write = status == held.status ? .none : .update(item)
                guard missing > 0 else { return MergeDecision(write: write) }
                return MergeDecision(write: write,
                                     opens: conflict(for: intent, hub: item, reason: .oversold(adjustment: units, missing: missing)))
            }
        case .delete(let lastPulledVersion):
            guard let held = hub.item else { return .nothing }
            if hub.lastVersionByOthers > lastPulledVersion {
                return MergeDecision(write: .none, opens: conflict(for: intent, hub: held, reason: .changedBeforeDelete))
            }
            return MergeDecision(write: .delete)
        case .resolve(let conflictID, let choice):
            guard let open = openConflict, open.id == conflictID else {
                return judgeLateResolution(choice, hub: hub, for: intent)
            }
            return judgeResolution(of: open, choice: choice, hub: hub, for: intent)
        }
    }

    /// What a replica does locally for its own intent, on its copy of the item (nil when it holds
    /// none): the intent as it was meant, with no conflict. After a pull a replica holds the hub's
    /// state with its unpushed intents replayed by this, so that its own work stays visible
    /// until the hub has judged it.
    public static func localWrite(of intent: Intent, on current: Item?) -> MergeDecision.Write {
        switch intent.change {
        case .resolve(_, let choice):
            switch choice {
            case .keepHub: return .none
            case .delete: return current == nil ? .none : .delete
            case .item(let chosen):
                guard let current else { return .insert(restored(chosen, as: intent)) }
                return sameValues(current, chosen) ? .none : .update(chosen)
            }
        case .add(let item):
            return current == nil ? .insert(item) : .none
        case .delete:
            return current == nil ? .none : .delete
        case .set, .adjust:
            guard let current, let next = replayed(intent.change, on: current) else { return .none }
            return next == current ? .none : .update(next)
        }
    }

    /// `change` as it was meant, applied to `item` without any check: a set's new values, an
    /// adjustment down to out of stock at most; nil for a delete.
    public static func replayed(_ change: IntentChange, on item: Item?) -> Item? {
        switch change {
        case .add(let added):
            return item ?? added
        case .set(let changes):
            return item.map { changes.applied(to: $0) }
        case .adjust(let units):
            guard var item else { return nil }
            if case .status(let status, _) = adjusted(item.status, by: units) { item.status = status }
            return item
        case .delete:
            return nil
        case .resolve(_, let choice):
            switch choice {
            case .keepHub: return item
            case .item(let chosen): return chosen
            case .delete: return nil
            }
        }
    }

    // MARK: - Sets

    /// Judges each field of `changes` on its own: applied, already there, or overtaken.
    private static func judgeSet(_ changes: ItemChanges, on held: Item, for intent: Intent) -> MergeDecision {
        var item = held
        let name = judge(changes.name, holding: held.name) { item.name = $0 }
        let color = judge(changes.color, holding: held.color) { item.color = $0 }
        let status = judge(changes.status, holding: held.status) { item.status = $0 }
        var texts: [OptionalTextField: FieldChange<String?>] = [:]
        for (field, change) in changes.texts {
            texts[field] = judge(change, holding: field.text(in: held)) { field.set($0, in: &item) }
        }
        let write: MergeDecision.Write = item == held ? .none : .update(item)
        guard let overtaken = ItemChanges(name: name, color: color, status: status, texts: texts) else {
            return MergeDecision(write: write)
        }
        return MergeDecision(write: write, opens: conflict(for: intent, hub: item, reason: .overtaken(overtaken)))
    }

    /// One field of a set: applies it (through `apply`) when the hub holds the value it replaced,
    /// and returns it when the hub holds neither that value nor the new one (overtaken).
    private static func judge<Value>(_ change: FieldChange<Value>?, holding held: Value,
                                     apply: (Value) -> Void) -> FieldChange<Value>? {
        guard let change else { return nil }
        if held == change.from {
            apply(change.to)
            return nil
        }
        return held == change.to ? nil : change
    }

    // MARK: - Adjustments

    private enum Adjusted {
        case unchanged
        case overflow
        /// The new status, and how many units could not be taken (0 when all could).
        case status(Status, missing: Int)
    }

    /// The quantity rule of a merge: `Status.adjusted(by:)`, except that taking more than is in
    /// stock takes what there is and counts the rest as missing, and an item already out of
    /// stock keeps its back-order flag when nothing arrives.
    private static func adjusted(_ status: Status, by units: Int) -> Adjusted {
        if units == 0 { return .unchanged }
        let (total, overflow) = status.quantityInStock.addingReportingOverflow(units)
        if overflow { return .overflow }
        if total > 0 { return .status(.inStock(quantity: total), missing: 0) }
        let empty: Status
        if case .outOfStock = status { empty = status } else { empty = .outOfStock(isOnBackOrder: false) }
        return .status(empty, missing: total == Int.min ? Int.max : -total)
    }

    // MARK: - Resolutions

    private static func judgeResolution(of open: Conflict, choice: ConflictChoice, hub: HubItemState,
                                        for intent: Intent) -> MergeDecision {
        switch choice {
        case .keepHub:
            return MergeDecision(write: .none, closes: open.id)
        case .delete:
            guard let held = hub.item else { return MergeDecision(write: .none, closes: open.id) }
            // The person chose to delete the item as they saw it; a change since then is one
            // they never saw, as for any delete.
            if let seen = open.hubItem, !sameValues(seen, held) {
                return MergeDecision(write: .none, opens: conflict(for: intent, hub: held, reason: .changedBeforeDelete),
                                     closes: open.id)
            }
            return MergeDecision(write: .delete, closes: open.id)
        case .item(let chosen):
            guard let held = hub.item else {
                // Ids are never reused: an item the hub deleted comes back under the
                // resolution's own id, the same on the hub and on every replica.
                return MergeDecision(write: .insert(restored(chosen, as: intent)), closes: open.id)
            }
            guard let changes = ItemChanges(from: open.shownItem ?? held, to: chosen) else {
                return MergeDecision(write: .none, closes: open.id)
            }
            let decided = judgeSet(changes, on: held, for: intent)
            return MergeDecision(write: decided.write, opens: decided.opens, closes: open.id)
        }
    }

    /// A resolution whose conflict is no longer open: someone resolved it first. It changes
    /// nothing when it chose what the hub now holds; otherwise it is a new conflict.
    private static func judgeLateResolution(_ choice: ConflictChoice, hub: HubItemState, for intent: Intent) -> MergeDecision {
        switch choice {
        case .keepHub:
            return .nothing
        case .delete:
            guard let held = hub.item else { return .nothing }
            return MergeDecision(write: .none, opens: conflict(for: intent, hub: held, reason: .resolvedMeanwhile(choice)))
        case .item(let chosen):
            if let held = hub.item, sameValues(held, chosen) { return .nothing }
            return MergeDecision(write: .none, opens: conflict(for: intent, hub: hub.item, reason: .resolvedMeanwhile(choice)))
        }
    }

    /// The chosen item under the resolution's id, for an item that has to come back.
    private static func restored(_ chosen: Item, as intent: Intent) -> Item {
        Item.assembling(id: intent.id, name: chosen.name, color: chosen.color, status: chosen.status) { $0.text(in: chosen) }
    }

    // MARK: - Helpers

    private static func conflict(for intent: Intent, hub: Item?, reason: ConflictReason) -> Conflict {
        Conflict(id: intent.id, itemID: intent.itemID, hubItem: hub, replicaCopy: intent.replicaCopy,
                 origin: intent.origin, madeAt: intent.madeAt, reason: reason)
    }

    /// Equal in every field, whatever the ids.
    private static func sameValues(_ a: Item, _ b: Item) -> Bool {
        ItemChanges(from: a, to: b) == nil
    }
}
