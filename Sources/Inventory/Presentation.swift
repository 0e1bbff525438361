import FoundationEssentials
import TextFormats

/// How the inventory reads to a person. Pure functions of the model: no terminal, no database.
public enum Presentation {
    /// "In stock: 100", "Out of stock" or "Out of stock: on back order".
    public static func text(for status: Status) -> String {
        switch status {
        case .inStock(let quantity): "In stock: \(quantity)"
        case .outOfStock(isOnBackOrder: false): "Out of stock"
        case .outOfStock(isOnBackOrder: true): "Out of stock: on back order"
        }
    }

    /// The colour's name, or "-" when the item has none.
    public static func text(for color: Color?) -> String {
        color?.rawValue ?? "-"
    }

    /// `field` of `item` as shown: the name as ``displayName(_:)``, the colour and status as
    /// their texts, an optional text as it is or "-" when the item has none (a control
    /// character stored by hand is shown escaped, as in a name).
    public static func text(of field: ItemField, in item: Item) -> String {
        switch field.kind {
        case .name: displayName(item.name)
        case .color: text(for: item.color)
        case .status: text(for: item.status)
        case .optionalText(let optional): optional.text(in: item).map(ControlCharacters.escaped) ?? "-"
        }
    }

    /// How an added item's optional text reads after its status ("at 'Shelf B3'"): the one
    /// wording each optional text needs of its own.
    private static func addedWording(_ optional: OptionalTextField, _ text: String) -> String {
        switch optional {
        case .location: "at '\(text)'"
        }
    }

    /// The name as shown: a draft's empty name reads "(no name)" rather than vanishing, and a
    /// control character stored in the file (written there by hand) is shown escaped
    /// (`ControlCharacters/escaped(_:)`), never sent raw to the terminal.
    public static func displayName(_ name: String) -> String {
        Item.isBlank(name) ? "(no name)" : ControlCharacters.escaped(name)
    }

    /// One item on one line: `Keyboard  blue  In stock: 100`.
    public static func row(for item: Item) -> String {
        [displayName(item.name), text(for: item.color), text(for: item.status)].joined(separator: "  ")
    }

    /// Items as an aligned table with a header row: the id, then each field (``ItemField``).
    public static func table(for items: [Item]) -> [String] {
        TextTable.lines(
            header: ["ID"] + ItemField.allCases.map { $0.key.uppercased() },
            rows: items.map { item in [item.id.lowercasedString] + ItemField.allCases.map { text(of: $0, in: item) } })
    }

    /// Drafts as an aligned table with a header row. A conflict's draft says why in its kind
    /// ("resolving: oversold, 1 missing"); `draft show` has the rest.
    public static func table(for drafts: [IdentifiedDraft]) -> [String] {
        TextTable.lines(
            header: ["DRAFT", "KIND", "NAME", "COLOR", "STATUS"],
            rows: drafts.map { entry in
                let item = entry.draft.item
                let kind = kindText(for: entry.draft) + (entry.draft.openConflict.map { ": " + summary(of: $0) } ?? "")
                return [entry.id.lowercasedString, kind, displayName(item.name), text(for: item.color), text(for: item.status)]
            })
    }

    /// Why a conflict was opened, in a few words: the reason's stored name with spaces, and
    /// for an oversold item how many are missing ("oversold, 1 missing").
    public static func summary(of conflict: OpenConflict) -> String {
        let reason = conflict.reason.rawValue.replacing("_", with: " ")
        guard conflict.reason == .oversold, let missing = conflict.missing else { return reason }
        return "\(reason), \(missing) missing"
    }

    /// Why a conflict was opened, as a sentence a person resolving it reads.
    public static func explanation(of conflict: OpenConflict) -> String {
        switch conflict.reason {
        case .overtaken:
            "the hub changed these fields first; the replica's values are the draft's"
        case .oversold:
            "adjusted by \(conflict.adjustment.map(String.init) ?? "?") at the replica while the hub had fewer: now out of stock, \(conflict.missing.map(String.init) ?? "?") missing"
        case .quantityOverflow:
            "adjusting by \(conflict.adjustment.map(String.init) ?? "?") would pass the largest quantity: nothing was applied"
        case .changedBeforeDelete:
            "the replica deleted the item, which others had changed since it last synced"
        case .deletedBeforeChange:
            "the replica changed the item, which the hub had deleted"
        case .resolvedMeanwhile:
            "another resolution of this conflict reached the hub first; the replica's is the draft's"
        }
    }

    /// The draft's case as the table and JSON name it: the Swift case's name, like the
    /// `"case"` of a status in JSON (the stored tag is DraftCodec's business).
    public static func kindText(for draft: Draft) -> String {
        draft.case.rawValue
    }

    /// An item's full details, one field per line, with its version when known.
    public static func details(for item: Item, version: Int? = nil) -> [String] {
        fieldLines([("id", item.id.lowercasedString)] + fields(of: item) + (version.map { [("version", String($0))] } ?? []))
    }

    /// An event in words: "Added 'Mug', blue, In stock: 5", "Renamed 'Mug' -> 'Blue mug'",
    /// "Quantity 5 -> 3", "Out of stock: on back order", "Deleted". A change of several fields
    /// reads as their changes joined by "; ".
    public static func text(for event: ItemEvent) -> String {
        switch event {
        case .added(let item):
            "Added '\(item.name)', \(item.color.map(\.rawValue) ?? "no colour"), \(text(for: item.status))"
                + OptionalTextField.allCases.compactMap { optional in optional.text(in: item).map { ", " + addedWording(optional, $0) } }.joined()
        case .changed(let changes):
            ItemField.allCases.compactMap { field -> String? in
                switch field.kind {
                case .name: changes.name.map { "Renamed '\($0.from)' -> '\($0.to)'" }
                case .color: changes.color.map { "Colour \(colorWord($0.from)) -> \(colorWord($0.to))" }
                case .status: changes.status.map { text(forStatusChange: $0) }
                case .optionalText(let optional):
                    optional.change(in: changes).map { "\(field.label) \(textWord($0.from)) -> \(textWord($0.to))" }
                }
            }.joined(separator: "; ")
        case .deleted:
            "Deleted"
        }
    }

    /// A recorded event in words: ``text(for:)-(ItemEvent)``, then how it was made when that is
    /// known: "Quantity 5 -> 2 (adjusted by -3)" for an adjustment, where the change alone would
    /// not tell a sale of 3 from a count that set the quantity to 2.
    public static func text(for recorded: RecordedItemEvent) -> String {
        let change = text(for: recorded.event)
        guard let adjustedBy = recorded.adjustedBy else { return change }
        return change + " (adjusted by \(adjustedBy > 0 ? "+" : "")\(adjustedBy))"
    }

    /// A status change in words: the quantity's change while in stock, else the new status.
    public static func text(forStatusChange change: FieldChange<Status>) -> String {
        if case .inStock(let before) = change.from, case .inStock(let after) = change.to {
            return "Quantity \(before) -> \(after)"
        }
        return text(for: change.to)
    }

    private static func textWord(_ text: String?) -> String {
        text.map { "'\($0)'" } ?? "none"
    }

    private static func colorWord(_ color: Color?) -> String {
        color?.rawValue ?? "none"
    }

    /// What stands between the two ends of an id in its short form (``shortID(_:)``).
    public static let shortIDSeparator = "\u{2026}"

    /// An id where its 36 characters do not fit (event lines, page links): its first 4 hex
    /// digits, "…", and its last 8, e.g. `0193…2e4f5a6b` for
    /// `0193a1f2-5c3e-7b21-9f0a-3c1d2e4f5a6b`. Not the first 8: a UUIDv7's first 12 hex digits
    /// are its creation time in milliseconds, so items made within minutes of each other share
    /// them (issue 37), while its last 8 are random. The first 4 keep it recognisable as the
    /// start of the id a full listing shows. The CLI takes this form wherever it takes an id
    /// (with "…" or "..."), and refuses it as ambiguous when two ids have the same ends.
    public static func shortID(_ id: UUID) -> String {
        let text = id.lowercasedString
        return String(text.prefix(4)) + shortIDSeparator + String(text.suffix(8))
    }

    /// The widest name ``eventLine(_:name:)`` shows before cutting it with "…".
    static let eventNameWidth = 20

    /// The header of ``eventLine(_:name:)``'s columns.
    public static let eventHeader = "POSITION  ITEM           NAME                  VERSION  TIME                      CHANGE"

    /// One event of every item's history as a line of fixed columns, so that lines printed as
    /// events happen line up without knowing the later ones: position, the id's short form
    /// (``shortID(_:)``), the item's name (cut to 20 characters with "…"; "?" when not
    /// known), version, time (UTC) and the change in words.
    ///
    /// - Parameters:
    ///   - event: the event.
    ///   - name: the item's name at that event: its last name given at or before it.
    public static func eventLine(_ event: PositionedItemEvent, name: String?) -> String {
        func padded(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        let recorded = event.recorded
        var shown = name.map(displayName) ?? "?"
        if shown.count > eventNameWidth { shown = String(shown.prefix(eventNameWidth - 1)) + shortIDSeparator }
        return padded(String(event.position), 10) + padded(shortID(recorded.itemID), 15) + padded(shown, eventNameWidth + 2)
            + padded(String(recorded.version), 9) + padded(recorded.recordedAt, 26) + text(for: recorded)
    }

    /// The line without the item's name.
    @available(*, deprecated, renamed: "eventLine(_:name:)", message: "give the item's name: ids alone do not tell items apart")
    public static func eventLine(_ event: PositionedItemEvent) -> String {
        eventLine(event, name: nil)
    }

    /// The name an event gives its item, when it gives one: the name it was added with, or the
    /// new name of a rename. A reader of events keeps it, and asks the store
    /// (`ItemRepository.name(id:atVersion:)`) only for items whose naming event it did not see.
    public static func nameGiven(by event: ItemEvent) -> String? {
        switch event {
        case .added(let item): item.name
        case .changed(let changes): changes.name?.to
        case .deleted: nil
        }
    }

    /// An item's history as an aligned table, oldest first: version, time, change.
    public static func history(_ events: [RecordedItemEvent]) -> [String] {
        TextTable.lines(
            header: ["VERSION", "TIME", "CHANGE"],
            rows: events.map { [String($0.version), $0.recordedAt, text(for: $0)] })
    }

    /// A draft's full details, one field per line; "item id" is the id the item gets when saved.
    /// A conflict's draft also shows why, the replica and when, the hub's item (or the
    /// replica's last copy when the hub deleted it) and what the replica wanted, before the
    /// fields as they will be saved.
    public static func details(for entry: IdentifiedDraft) -> [String] {
        let item = entry.draft.item
        var lines: [(String, String)] = [("draft", entry.id.lowercasedString)]
        switch entry.draft {
        case .adding: lines.append(("kind", "adding a new item"))
        case .duplicating(_, let source): lines.append(("kind", "duplicating item \(source.lowercasedString)"))
        case .resolving(_, let conflict):
            lines += [
                ("kind", "resolving a conflict"),
                ("reason", summary(of: conflict) + ": " + explanation(of: conflict)),
                ("replica", conflict.origin.lowercasedString),
                ("made at", conflict.madeAt),
                ("hub", hubText(of: conflict)),
                ("wanted", wantedText(of: conflict)),
            ]
        }
        return fieldLines(lines + [("item id", item.id.lowercasedString)] + fields(of: item))
    }

    /// The hub's side of a conflict: the item's fields on one line, or, when the hub deleted
    /// it, that it did with the replica's last copy.
    public static func hubText(of conflict: OpenConflict) -> String {
        conflict.hubHoldsItem ? oneLine(conflict.shown) : "deleted; the replica's last copy: " + oneLine(conflict.shown)
    }

    /// What the replica wanted: the item's fields on one line, or "the item deleted".
    public static func wantedText(of conflict: OpenConflict) -> String {
        conflict.wanted.map(oneLine) ?? "the item deleted"
    }

    /// Every field of `item` on one line, as the detail lines show each.
    private static func oneLine(_ item: Item) -> String {
        ItemField.allCases.map { text(of: $0, in: item) }.joined(separator: "  ")
    }

    /// Each field of `item` as a detail line's key (its label in lower case) and value.
    private static func fields(of item: Item) -> [(String, String)] {
        ItemField.allCases.map { ($0.label.lowercased(), text(of: $0, in: item)) }
    }

    private static func fieldLines(_ fields: [(String, String)]) -> [String] {
        let width = (fields.map(\.0.count).max() ?? 0) + 2
        return fields.map { key, value in
            key + ":" + String(repeating: " ", count: width - key.count - 1) + value
        }
    }
}
