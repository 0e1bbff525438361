import TextFormats

/// The JSON form of the model that scripts read: the keys keep a stable, documented order
/// (`id`, then each ``ItemField``'s key in the declaration's order), written with `JSONText` so no encoder is needed on the hot path.
///
/// - An item: `{"id":"…","name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100},"location":"Shelf B3"}`;
///   `"color":null` and `"location":null` when it has none; `{"case":"outOfStock","isOnBackOrder":true}` out of stock;
///   `"version":3` last when the version is given.
/// - A draft: `{"id":"…","case":"adding","sourceItemId":null,"item":{…}}`; a conflict's draft
///   (`"case":"resolving"`) ends with `"conflict":{"reason":…,"origin":…,…}`.
public enum JSONPresentation {
    /// An item as one JSON object; with `version`, a last member `"version"` (`items show`).
    ///
    /// Appended piece by piece into one string: `items list --format json` writes one per row,
    /// and building member arrays first cost ~15k instructions per item (BENCHMARKS.md, W6).
    public static func object(for item: Item, version: Int? = nil) -> String {
        var text = "{\"id\":\""
        text.reserveCapacity(160)
        text += item.id.lowercasedString
        text += "\""
        ItemField.forEach { field in
            text += memberPrefixes[field.rawValue]
            switch field.kind {
            case .name: JSONText.appendString(item.name, to: &text)
            case .color: text += self.text(for: item.color)
            case .status: text += object(for: item.status)
            case .optionalText(let optional): text += JSONText.string(optional.text(in: item))
            }
        }
        if let version { text += ",\"version\":" + String(version) }
        return text + "}"
    }

    /// `,"<key>":` for each field, by raw value: one append a member, as the object was written
    /// before its members came from the declaration (three appends cost W6, `items list --format
    /// json`, 62k instructions of 6.89M).
    private static let memberPrefixes = ItemField.allCases.map { ",\"\($0.key)\":" }

    /// A status as `{"case":…}` with its associated value.
    public static func object(for status: Status) -> String {
        switch status {
        case .inStock(let quantity): "{\"case\":\"inStock\",\"quantity\":\(quantity)}"
        case .outOfStock(let isOnBackOrder): "{\"case\":\"outOfStock\",\"isOnBackOrder\":\(isOnBackOrder)}"
        }
    }

    /// A draft with its id as one JSON object. A `resolving` draft has a last member
    /// `"conflict"` (``object(for:)-(OpenConflict)``); the other cases have none.
    public static func object(for entry: IdentifiedDraft) -> String {
        var members: [(key: String, value: String)] = [
            ("id", JSONText.string(entry.id.lowercasedString)),
            ("case", JSONText.string(Presentation.kindText(for: entry.draft))),
            ("sourceItemId", JSONText.string(entry.draft.sourceItemID?.lowercasedString)),
            ("item", object(for: entry.draft.item)),
        ]
        if let conflict = entry.draft.openConflict { members.append(("conflict", object(for: conflict))) }
        return JSONText.object(members)
    }

    /// A conflict being resolved: `reason` (its stored name, `"oversold"`), `origin` (the
    /// replica), `madeAt`, `hubHoldsItem`, `shown` (the hub's item, or the replica's last copy
    /// when the hub deleted it), `wanted` (null for a wanted delete), `adjustment` and
    /// `missing` (null unless the reason has them).
    public static func object(for conflict: OpenConflict) -> String {
        JSONText.object([
            ("reason", JSONText.string(conflict.reason.rawValue)),
            ("origin", JSONText.string(conflict.origin.lowercasedString)),
            ("madeAt", JSONText.string(conflict.madeAt)),
            ("hubHoldsItem", String(conflict.hubHoldsItem)),
            ("shown", object(for: conflict.shown)),
            ("wanted", conflict.wanted.map { object(for: $0) } ?? "null"),
            ("adjustment", conflict.adjustment.map(String.init) ?? "null"),
            ("missing", conflict.missing.map(String.init) ?? "null"),
        ])
    }

    /// An event as one JSON object: `itemId`, `version`, `kind` (the Swift case: `added`,
    /// `changed`, `deleted`), `recordedAt`, then the payload: `item` for `added`; for `changed`,
    /// each ``ItemField``'s key, each `{"from":…,"to":…}` or null when that field did not change.
    /// Then how the change was made, each member only when the event has it (as `item` is only
    /// on `added`), so an event without them reads as it always did: `adjustedBy` (the
    /// adjustment's units, ``RecordedItemEvent/adjustedBy``), `origin` and `intentId` (the
    /// replica and its intent, on a hub), spelled like `itemId`.
    public static func object(for recorded: RecordedItemEvent) -> String {
        JSONText.object(members(for: recorded))
    }

    /// An event with its place in commit order: `position`, then the members of
    /// ``object(for:)-(RecordedItemEvent)`` (what `stockroom events` prints, one per line).
    public static func object(for event: PositionedItemEvent) -> String {
        JSONText.object([("position", String(event.position))] + members(for: event.recorded))
    }

    private static func members(for recorded: RecordedItemEvent) -> [(key: String, value: String)] {
        var members: [(key: String, value: String)] = [
            ("itemId", JSONText.string(recorded.itemID.lowercasedString)),
            ("version", String(recorded.version)),
            ("kind", JSONText.string(recorded.event.case.rawValue)),
            ("recordedAt", JSONText.string(recorded.recordedAt)),
        ]
        switch recorded.event {
        case .added(let item):
            members.append(("item", object(for: item)))
        case .changed(let changes):
            func change<Value>(_ change: FieldChange<Value>?, _ encode: (Value) -> String) -> String {
                change.map { JSONText.object(["from": encode($0.from), "to": encode($0.to)]) } ?? "null"
            }
            for field in ItemField.allCases {
                let value = switch field.kind {
                case .name: change(changes.name) { JSONText.string($0) }
                case .color: change(changes.color, text(for:))
                case .status: change(changes.status, object(for:))
                case .optionalText(let optional): change(optional.change(in: changes)) { JSONText.string($0) }
                }
                members.append((field.key, value))
            }
        case .deleted:
            break
        }
        if let adjustedBy = recorded.adjustedBy { members.append(("adjustedBy", String(adjustedBy))) }
        if let origin = recorded.origin { members.append(("origin", JSONText.string(origin.lowercasedString))) }
        if let intentID = recorded.intentID { members.append(("intentId", JSONText.string(intentID.lowercasedString))) }
        return members
    }

    /// A colour as a JSON string, or `null`.
    private static func text(for color: Color?) -> String {
        JSONText.string(color?.rawValue)
    }
}
