import FoundationEssentials
import TextFormats

/// The fields of an item besides its id, declared once: the one list every path (the codecs,
/// history, import and export, JSON, request bodies, forms, the OpenAPI document) walks, in
/// this order, so a new field is a new case here and the compiler leads through the rest
/// (every `switch` over ``Kind`` and ``OptionalTextField`` is exhaustive, with no `default:`).
///
/// A field's ``key`` names it everywhere a person or a script sees it: the JSON member, the CSV
/// column, the form control, the merge-patch key. Its ``column`` names it in SQL (the status
/// spreads over the columns its codec names from there), and its history pair is
/// `from_<column>`/`to_<column>` on `item_events`, with `<column>_changed` for a field whose
/// "none to none" must be told from "unchanged" (see ``changedFlagColumn``).
public enum ItemField: Int, CaseIterable, Hashable, Sendable {
    /// ``Item/name``.
    case name
    /// ``Item/color``.
    case color
    /// ``Item/status``.
    case status
    /// ``Item/location``.
    case location

    /// Calls `body` with each field in the declaration's order, as a loop over `allCases`
    /// does, for the code that runs once a row: the item codec's bind and decode, the history
    /// codec, export's CSV and JSON rows, the JSON object, the web list's rows. Spelled out call
    /// by call, so each `switch field.kind` in `body` folds to its one arm: no array, no jump
    /// per field (the loop over `allCases` cost W2 about 200 instructions a row: BENCHMARKS.md,
    /// "W1, W2 and W6 against the file before `location`"). A new case goes here too;
    /// `ItemFieldDeclarationTests` fails until it does.
    @inlinable @inline(__always)
    public static func forEach<Failure: Error>(_ body: (ItemField) throws(Failure) -> Void) throws(Failure) {
        try body(.name)
        try body(.color)
        try body(.status)
        try body(.location)
    }

    /// How a field is held, which says how every path reads and writes it.
    public enum Kind: Sendable, Equatable {
        /// The item's name: text, never blank.
        case name
        /// A ``Color`` or none.
        case color
        /// The ``Status``, a multi-column enum.
        case status
        /// Text or none, by the rule of an ``OptionalTextField``.
        case optionalText(OptionalTextField)
    }

    /// How the field is held.
    @inlinable
    public var kind: Kind {
        switch self {
        case .name: .name
        case .color: .color
        case .status: .status
        case .location: .optionalText(.location)
        }
    }

    /// The field's name in JSON, CSV headers, forms and merge patches.
    public var key: String { staticKey.description }

    /// ``key`` as a static string, which writers copy per row without making a `String`.
    public var staticKey: StaticString {
        switch self {
        case .name: "name"
        case .color: "color"
        case .status: "status"
        case .location: "location"
        }
    }

    /// The field as a person reads it, capitalised as a label starts ("Location"); in a sentence
    /// it is lowercased.
    public var label: String {
        switch self {
        case .name: "Name"
        case .color: "Colour"
        case .status: "Status"
        case .location: "Location"
        }
    }

    /// The schema version (the number of the migration) that added the field's columns to
    /// `items`, `drafts` and `item_events`: what a binary reading an older file stands in for.
    public var addedIn: Int {
        switch self {
        case .name, .color, .status: 1
        case .location: 8
        }
    }

    /// The SQL column holding the field (the first of the status's columns): the ``key`` in
    /// snake case.
    public var column: String {
        // By bytes (keys are ASCII), because every command asks for the columns at start-up
        // (W6); most keys are one lowercase word, the column as it is.
        let key = self.key
        let capitals = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard key.utf8.contains(where: capitals.contains) else { return key }
        var column = ""
        for byte in key.utf8 {
            if capitals.contains(byte) { column += "_" }
            column.unicodeScalars.append(Unicode.Scalar(capitals.contains(byte) ? byte + 32 : byte))
        }
        return column
    }

    /// The history column saying a field changed, for a field that may be none on both sides
    /// of a change (a colour removed looks like no colour changed without it): `color_changed`
    /// (0 or 1, from the first schema) and `<column>_changed` for every optional text (1, or
    /// NULL when it did not change, so events older than the column read as "unchanged").
    public var changedFlagColumn: String? {
        switch kind {
        case .name, .status: nil
        case .color, .optionalText: column + "_changed"
        }
    }

    /// The history column holding the value before a change (`from_<column>`; the status's
    /// columns take `from_` as a prefix).
    public var fromColumn: String { "from_" + column }
    /// The history column holding the value after a change, or the value of an added item.
    public var toColumn: String { "to_" + column }
}

/// The item's fields that are text or none (``ItemField/Kind/optionalText(_:)``): each is
/// trimmed on the way in, blank means none, and it holds no control character and at most
/// ``maximumLength`` Unicode scalars (the migration adding it mirrors that in CHECKs). Every path
/// handles them generically by these members (``ItemEdit/texts`` and ``ItemChanges/texts`` hold
/// their changes by field), so a new one is a case here and its stored property on ``Item``.
public enum OptionalTextField: Int, CaseIterable, Hashable, Sendable {
    /// ``Item/location``: where the item is kept.
    case location

    /// The field of the item it is.
    @inlinable
    public var field: ItemField {
        switch self {
        case .location: .location
        }
    }

    /// The longest text, counted in Unicode scalars (as SQLite's `length()` and PostgreSQL's
    /// `char_length()` count, so the CHECKs say the same). Declared here, with the field: the
    /// options' help, the forms' `maxlength`, the OpenAPI document and the refusals read it
    /// from here, and the migration adding the field mirrors it in its CHECKs.
    public var maximumLength: Int {
        switch self {
        case .location: 200
        }
    }

    /// What the field means, for the API's schema and help.
    public var summary: String {
        switch self {
        case .location: "Where the item is kept, such as Shelf B3"
        }
    }

    /// The field's name in a sentence ("location").
    var word: String { field.label.lowercased() }

    /// The field's text in `item`, or nil when it has none.
    @inlinable
    public func text(in item: Item) -> String? {
        switch self {
        case .location: item.location?.text
        }
    }

    /// Sets the field in `item` to `text` as stored (already by the rule: read back from the
    /// database or from ``parse(_:)``).
    @inlinable
    public func set(_ text: String?, in item: inout Item) {
        switch self {
        case .location: item.location = text.map(ItemLocation.init(stored:))
        }
    }

    /// Makes `edit` give the field `text` (as ``parse(_:)`` returns it), or remove it when nil.
    public func set(_ text: String?, in edit: inout ItemEdit) {
        edit.texts[self] = text.map { .set($0) } ?? .remove
    }

    /// The change of the field in `changes`, or nil when it did not change.
    public func change(in changes: ItemChanges) -> FieldChange<String?>? {
        changes.texts[self]
    }

    /// The text `raw` gives the field, trimmed of invisible characters at either end, or nil
    /// when it is empty or blank (none).
    ///
    /// - Throws: ``InventoryError/controlCharacterInText(_:_:position:)`` or
    ///   ``InventoryError/textTooLong(_:_:)``.
    public func parse(_ raw: String) throws(InventoryError) -> String? {
        let scalars = raw.unicodeScalars
        guard let first = scalars.firstIndex(where: { !ItemName.isInvisible($0) }),
              let last = scalars.lastIndex(where: { !ItemName.isInvisible($0) }) else { return nil }
        let trimmed = String(scalars[first...last])
        if let problem = problem(in: trimmed) { throw problem }
        return trimmed
    }

    /// The first rule trimmed `text` breaks, or nil: a control character, more than
    /// ``maximumLength`` Unicode scalars.
    public func problem(in text: String) -> InventoryError? {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if ControlCharacters.contains(scalar) { return .controlCharacterInText(self, scalar.value, position: count) }
        }
        if count > maximumLength { return .textTooLong(self, count) }
        return nil
    }
}

extension Item {
    /// An item from its fields: the name, colour and status, and every optional text as
    /// `text(field)` gives it (stored text, already by the rule). The one place outside this
    /// file's declarations that lists the optional texts, so readers (codecs, import) follow a
    /// new one without naming it.
    @inlinable
    package static func assembling(id: UUID, name: String, color: Color?, status: Status,
                                   texts text: (OptionalTextField) -> String?) -> Item {
        Item(id: id, name: name, color: color, status: status,
             location: text(.location).map(ItemLocation.init(stored:)))
    }
}

extension ItemChanges {
    /// The changes from the name, colour, status and every optional text's change as
    /// `text(field)` gives it, or nil when none changed.
    package static func assembling(name: FieldChange<String>?, color: FieldChange<Color?>?, status: FieldChange<Status>?,
                                   texts text: (OptionalTextField) -> FieldChange<String?>?) -> ItemChanges? {
        var texts: [OptionalTextField: FieldChange<String?>] = [:]
        for field in OptionalTextField.allCases { texts[field] = text(field) }
        return ItemChanges(name: name, color: color, status: status, texts: texts)
    }
}
