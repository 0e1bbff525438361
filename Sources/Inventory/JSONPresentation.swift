/// The JSON form of the model that scripts read, written by hand so the keys keep a stable,
/// documented order (`id, name, color, status`) and no encoder is needed on the hot path.
///
/// - An item: `{"id":"…","name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100}}`;
///   `"color":null` when it has none; `{"case":"outOfStock","isOnBackOrder":true}` out of stock.
/// - A draft: `{"id":"…","case":"adding","sourceItemId":null,"item":{…}}`.
public enum JSONPresentation {
    /// An item as one JSON object.
    public static func object(for item: Item) -> String {
        var text = "{\"id\":\"" + item.id.lowercasedString + "\",\"name\":"
        appendString(item.name, to: &text)
        text += ",\"color\":" + (item.color.map { "\"" + $0.rawValue + "\"" } ?? "null")
        text += ",\"status\":" + object(for: item.status) + "}"
        return text
    }

    /// A status as `{"case":…}` with its associated value.
    public static func object(for status: Status) -> String {
        switch status {
        case .inStock(let quantity): "{\"case\":\"inStock\",\"quantity\":\(quantity)}"
        case .outOfStock(let isOnBackOrder): "{\"case\":\"outOfStock\",\"isOnBackOrder\":\(isOnBackOrder)}"
        }
    }

    /// A draft with its id as one JSON object.
    public static func object(for entry: IdentifiedDraft) -> String {
        let source = entry.draft.sourceItemID.map { "\"" + $0.lowercasedString + "\"" } ?? "null"
        return "{\"id\":\"\(entry.id.lowercasedString)\",\"case\":\"\(Presentation.kindText(for: entry.draft))\",\"sourceItemId\":\(source),\"item\":\(object(for: entry.draft.item))}"
    }

    /// An event as one JSON object: `itemId`, `version`, `kind` (the Swift case: `added`,
    /// `changed`, `deleted`), `recordedAt`, then the payload: `item` for `added`; for `changed`,
    /// `name`, `color` and `status`, each `{"from":…,"to":…}` or null when that field did not change.
    public static func object(for recorded: RecordedItemEvent) -> String {
        var text = "{\"itemId\":\"" + recorded.itemID.lowercasedString + "\",\"version\":\(recorded.version)"
            + ",\"kind\":\"\(recorded.event.case.rawValue)\",\"recordedAt\":\"\(recorded.recordedAt)\""
        let color: (Color?) -> String = { $0.map { "\"" + $0.rawValue + "\"" } ?? "null" }
        switch recorded.event {
        case .added(let item):
            text += ",\"item\":" + object(for: item)
        case .changed(let changes):
            text += ",\"name\":"
            text += changes.name.map { "{\"from\":" + string($0.from) + ",\"to\":" + string($0.to) + "}" } ?? "null"
            text += ",\"color\":" + (changes.color.map { "{\"from\":" + color($0.from) + ",\"to\":" + color($0.to) + "}" } ?? "null")
            text += ",\"status\":" + (changes.status.map { "{\"from\":" + object(for: $0.from) + ",\"to\":" + object(for: $0.to) + "}" } ?? "null")
        case .deleted:
            break
        }
        return text + "}"
    }

    /// A JSON array of already-encoded values.
    public static func array(_ objects: [String]) -> String {
        "[" + objects.joined(separator: ",") + "]"
    }

    /// Appends `value` as a JSON string literal (RFC 8259 escaping; DEL and C1 controls are
    /// escaped too, so the output never carries a raw control character).
    public static func appendString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where ItemName.isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// `value` as a JSON string literal.
    public static func string(_ value: String) -> String {
        var text = ""
        appendString(value, to: &text)
        return text
    }
}
