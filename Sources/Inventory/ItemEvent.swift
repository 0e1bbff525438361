import FoundationEssentials
import Glibc

/// One change in an item's life, as its history records it. Each `items add`, `items update`,
/// `items delete` or `draft save` is exactly one event, and so one new version of the item.
public enum ItemEvent: Hashable, Sendable {
    /// The item came into the inventory as this.
    case added(Item)
    /// Some of its fields changed at once (one `items update` may rename it and restock it).
    case changed(ItemChanges)
    /// It was deleted; its history stays.
    case deleted

    /// A case of `ItemEvent` without its values; its raw value is the case's Swift name, which
    /// JSON shows as `kind`.
    public enum Case: String, CaseIterable, Sendable {
        /// ``ItemEvent/added(_:)``.
        case added
        /// ``ItemEvent/changed(_:)``.
        case changed
        /// ``ItemEvent/deleted``.
        case deleted
    }

    /// Which case this event is.
    public var `case`: Case {
        switch self {
        case .added: .added
        case .changed: .changed
        case .deleted: .deleted
        }
    }
}

/// A field that changed, from what to what. `from` and `to` always differ.
public struct FieldChange<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The value before.
    public let from: Value
    /// The value after.
    public let to: Value

    /// A change, or nil when the value stays the same (which is not a change).
    public init?(from: Value, to: Value) {
        guard from != to else { return nil }
        self.from = from
        self.to = to
    }
}

/// The fields one update changed: at least one of them, each from one value to a different one.
public struct ItemChanges: Hashable, Sendable {
    /// The new name, when it was renamed.
    public let name: FieldChange<String>?
    /// The new colour (or none), when it changed.
    public let color: FieldChange<Color?>?
    /// The new status, when it changed.
    public let status: FieldChange<Status>?
    /// The optional texts (``OptionalTextField``) that changed, each from one text (or none) to another.
    public let texts: [OptionalTextField: FieldChange<String?>]

    /// The changes, or nil when there are none: an event always changes something.
    public init?(name: FieldChange<String>?, color: FieldChange<Color?>?, status: FieldChange<Status>?,
                 texts: [OptionalTextField: FieldChange<String?>] = [:]) {
        guard name != nil || color != nil || status != nil || !texts.isEmpty else { return nil }
        self.name = name
        self.color = color
        self.status = status
        self.texts = texts
    }

    /// What turned `before` into `after`, or nil when nothing differs.
    public init?(from before: Item, to after: Item) {
        var texts: [OptionalTextField: FieldChange<String?>] = [:]
        for field in OptionalTextField.allCases {
            texts[field] = FieldChange(from: field.text(in: before), to: field.text(in: after))
        }
        self.init(name: FieldChange(from: before.name, to: after.name),
                  color: FieldChange(from: before.color, to: after.color),
                  status: FieldChange(from: before.status, to: after.status),
                  texts: texts)
    }

    /// True when every `from` is what `item` holds now.
    public func fits(_ item: Item) -> Bool {
        (name.map { $0.from == item.name } ?? true)
            && (color.map { $0.from == item.color } ?? true)
            && (status.map { $0.from == item.status } ?? true)
            && texts.allSatisfy { field, change in change.from == field.text(in: item) }
    }

    /// `item` with the changes made.
    public func applied(to item: Item) -> Item {
        var item = item
        if let name { item.name = name.to }
        if let color { item.color = color.to }
        if let status { item.status = status.to }
        for (field, change) in texts { field.set(change.to, in: &item) }
        return item
    }
}

/// An event as stored: which item, which version of it, when, and how the change was made.
///
/// What the change was is ``event``; how it came about is beside it, because it says nothing of
/// the item's fields and one ``ItemEvent`` (a quantity from 5 to 2) may have been made either
/// way: set by `items update` or the `sqlite3` shell, or adjusted by -3 (``adjustedBy``); made
/// here, or applied on a hub for a replica's intent (``origin`` and ``intentID``). The
/// database's triggers record these facts from what the writer declared in its transaction
/// (migration 0011); a write that declared nothing has none.
public struct RecordedItemEvent: Hashable, Sendable {
    /// The item the event belongs to (it may have been deleted since).
    public let itemID: UUID
    /// 1 for the first event of an item, then 2, 3, … with no gaps.
    public let version: Int
    /// When it was recorded: ISO-8601 UTC with milliseconds, `2026-11-22T15:04:05.123Z`.
    public let recordedAt: String
    /// What happened.
    public let event: ItemEvent
    /// The number of units the quantity was adjusted by (`items adjust`, the HTTP adjustments,
    /// the counter's buttons), never 0; nil when the change was not an adjustment (a quantity
    /// set to a value, any other change). Only a ``ItemEvent/changed(_:)`` event has one.
    public let adjustedBy: Int?
    /// The replica whose intent this change applied, on a hub; nil for a change made here.
    /// Set exactly when ``intentID`` is.
    public let origin: UUID?
    /// The replica's intent this change applied, on a hub; nil for a change made here. Set
    /// exactly when ``origin`` is.
    public let intentID: UUID?

    /// Pairs an event with where and when it was recorded, and how it was made.
    ///
    /// - Parameters:
    ///   - itemID: the item the event is about.
    ///   - version: the item's version this event made (1 for its addition).
    ///   - recordedAt: when it was recorded (ISO-8601 UTC).
    ///   - event: what happened.
    ///   - adjustedBy: the adjustment's units, for a ``ItemEvent/changed(_:)`` event made by one.
    ///   - origin: the replica, for an event applying its intent (with `intentID`).
    ///   - intentID: the intent (with `origin`).
    public init(itemID: UUID, version: Int, recordedAt: String, event: ItemEvent,
                adjustedBy: Int? = nil, origin: UUID? = nil, intentID: UUID? = nil) {
        self.itemID = itemID
        self.version = version
        self.recordedAt = recordedAt
        self.event = event
        self.adjustedBy = adjustedBy
        self.origin = origin
        self.intentID = intentID
    }
}
