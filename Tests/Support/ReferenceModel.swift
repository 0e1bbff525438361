import FoundationEssentials
import Inventory

/// A plain model of the merge rules of docs/replicas.md, written from the rules' text and not
/// from `MergeRules`: items as plain values, every rule spelled out step by step. The property
/// test runs it beside the hub that `MergeRules` drives and compares the two after every
/// intent. The database property test (StoreTests' SyncPropertyTests) runs the same model beside
/// real hubs, fed the intents each hub receives in the hub's order.
public struct ReferenceModel {
    /// An item as plain values.
    public struct Values: Hashable, Sendable, CustomStringConvertible {
        public var name: String
        public var color: String?
        /// Units in stock; 0 when out of stock.
        public var quantity: Int
        /// Only meaningful when `quantity` is 0.
        public var backOrder: Bool
        public var location: String?

        /// `item`'s values.
        public init(_ item: Item) {
            name = item.name
            color = item.color?.rawValue
            switch item.status {
            case .inStock(let units): quantity = units; backOrder = false
            case .outOfStock(let flag): quantity = 0; backOrder = flag
            }
            location = item.location?.text
        }

        /// Each field's value as text, by the field's name.
        public var fields: [String: String] {
            ["name": name, "color": color ?? "-", "status": quantity > 0 ? "in:\(quantity)" : "out:\(backOrder)",
             "location": location ?? "-"]
        }

        /// Sets the field named `key` to its value in `other`.
        public mutating func setField(_ key: String, from other: Values) {
            switch key {
            case "name": name = other.name
            case "color": color = other.color
            case "status": quantity = other.quantity; backOrder = other.backOrder
            case "location": location = other.location
            default: fatalError("unknown field \(key)")
            }
        }

        public var description: String { fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
    }

    /// A conflict as the model keeps it.
    public struct OpenConflict: Hashable, Sendable {
        /// The item it is about.
        public var itemID: UUID
        /// The hub's values when the conflict was opened (nil: the hub held no such item).
        public var seen: Values?
        /// The reason, as stored (`ConflictReason.Case`'s raw value).
        public var reason: String
        /// For an oversold adjustment, the units missing; 0 otherwise.
        public var missing: Int
    }

    /// The items the hub holds, by id.
    public var items: [UUID: Values] = [:]
    /// Ids of items deleted.
    public var deleted: Set<UUID> = []
    /// Per item, the writer of each version in order (nil: a local change on the hub).
    public var writers: [UUID: [UUID?]] = [:]
    /// The open conflicts, by the id of the intent that caused each.
    public var open: [UUID: OpenConflict] = [:]
    /// Every intent applied, in order: each id once.
    public var applied: [UUID] = []
    /// Sets (and set-like resolutions) in which at least one field was overtaken.
    public var overtakenSets: Set<UUID> = []
    /// Every conflict ever opened, by intent id.
    public var opened: Set<UUID> = []
    /// Per item, the sum of every adjustment applied.
    public var adjustedUnits: [UUID: Int] = [:]
    /// Per item, the sum of every unit found missing (taken below zero).
    public var missingUnits: [UUID: Int] = [:]

    /// An empty hub.
    public init() {}

    /// A change made on the hub itself, by its own users: not an intent, no rule.
    public mutating func writeLocally(_ item: Item?, id: UUID) {
        if let item {
            if items[id] == nil { writers[id] = [] }
            items[id] = Values(item)
        } else {
            items[id] = nil
            deleted.insert(id)
        }
        writers[id, default: []].append(nil)
    }

    /// Applies one intent as the hub receives it; one applied before (a retried push) is skipped.
    public mutating func apply(_ intent: Intent) {
        if applied.contains(intent.id) { return }  // the hub remembers applied intents
        applied.append(intent.id)
        let id = intent.itemID
        switch intent.change {
        case .add(let item):
            if deleted.contains(id) {
                openConflict(intent, seen: nil, reason: "deleted_before_change")
            } else if let current = items[id] {
                if current != Values(item) { openConflict(intent, seen: current, reason: "overtaken") }
            } else {
                items[id] = Values(item)
                writers[id] = [intent.origin]
            }
        case .set(let changes):
            guard let current = items[id] else {
                openConflict(intent, seen: nil, reason: "deleted_before_change")
                return
            }
            // The replica's copy holds the replaced values; the wanted ones are on top of it.
            let copy = intent.replicaCopy!
            let from = Values(copy), to = Values(changes.applied(to: copy))
            applySetFieldByField(intent, changedKeys: changedKeys(changes), from: from, to: to, current: current)
        case .adjust(let units):
            guard var current = items[id] else {
                openConflict(intent, seen: nil, reason: "deleted_before_change")
                return
            }
            if units == 0 { return }
            adjustedUnits[id, default: 0] += units
            let total = current.quantity + units
            if total > 0 {
                current.quantity = total
                current.backOrder = false
            } else if current.quantity > 0 {
                current.quantity = 0
                current.backOrder = false
            }
            let changed = current != items[id]
            items[id] = current
            if changed { writers[id, default: []].append(intent.origin) }
            if total < 0 {
                missingUnits[id, default: 0] += -total
                openConflict(intent, seen: current, reason: "oversold", missing: -total)
            }
        case .delete(let lastPulledVersion):
            guard let current = items[id] else { return }
            let versions = writers[id] ?? []
            let changedByOthers = versions.enumerated().contains { index, writer in
                index + 1 > lastPulledVersion && writer != intent.origin
            }
            if changedByOthers {
                openConflict(intent, seen: current, reason: "changed_before_delete")
            } else {
                items[id] = nil
                deleted.insert(id)
                writers[id, default: []].append(intent.origin)
            }
        case .resolve(let conflictID, let choice):
            resolve(intent, conflictID: conflictID, choice: choice)
        }
    }

    private mutating func resolve(_ intent: Intent, conflictID: UUID, choice: ConflictChoice) {
        let id = intent.itemID
        guard let conflict = open[conflictID] else {
            // Resolved first by someone else: fine when it chose the same, else a new conflict.
            switch choice {
            case .keepHub: return
            case .delete:
                if let current = items[id] { openConflict(intent, seen: current, reason: "resolved_meanwhile") }
            case .item(let chosen):
                if items[id] != Values(chosen) { openConflict(intent, seen: items[id], reason: "resolved_meanwhile") }
            }
            return
        }
        open[conflictID] = nil
        switch choice {
        case .keepHub:
            return
        case .delete:
            guard let current = items[id] else { return }
            if let seen = conflict.seen, seen != current {
                openConflict(intent, seen: current, reason: "changed_before_delete")
                return
            }
            items[id] = nil
            deleted.insert(id)
            writers[id, default: []].append(intent.origin)
        case .item(let chosen):
            guard let current = items[id] else {
                items[intent.id] = Values(chosen)  // back, under the resolution's own id
                writers[intent.id] = [intent.origin]
                return
            }
            let seen = conflict.seen ?? current
            let wanted = Values(chosen)
            let keys = Set(seen.fields.keys.filter { seen.fields[$0] != wanted.fields[$0] })
            applySetFieldByField(intent, changedKeys: keys, from: seen, to: wanted, current: current)
        }
    }

    /// A set, judged field by field: a field applies when the hub holds the value it replaced,
    /// is nothing when the hub holds the new value, and is overtaken otherwise.
    private mutating func applySetFieldByField(_ intent: Intent, changedKeys: Set<String>, from: Values, to: Values,
                                               current: Values) {
        var next = current
        var overtaken = false
        for key in changedKeys.sorted() {
            let held = current.fields[key], replaced = from.fields[key], wanted = to.fields[key]
            if held == replaced {
                next.setField(key, from: to)
            } else if held != wanted {
                overtaken = true
            }
        }
        if next != current {
            items[intent.itemID] = next
            writers[intent.itemID, default: []].append(intent.origin)
        }
        if overtaken {
            overtakenSets.insert(intent.id)
            openConflict(intent, seen: next, reason: "overtaken")
        }
    }

    private func changedKeys(_ changes: ItemChanges) -> Set<String> {
        var keys: Set<String> = []
        if changes.name != nil { keys.insert("name") }
        if changes.color != nil { keys.insert("color") }
        if changes.status != nil { keys.insert("status") }
        if changes.location != nil { keys.insert("location") }
        return keys
    }

    private mutating func openConflict(_ intent: Intent, seen: Values?, reason: String, missing: Int = 0) {
        open[intent.id] = OpenConflict(itemID: intent.itemID, seen: seen, reason: reason, missing: missing)
        opened.insert(intent.id)
    }
}
