import TextFormats

/// Where an item is kept ("Shelf B3"): text that is never blank, holds no control character,
/// has no invisible characters at either end and is at most ``maximumLength`` Unicode scalars
/// long. An item with no location has `location == nil`; empty or blank input means that.
///
/// Built from what a person typed with ``parse(_:)``, which trims and validates; the migration
/// `0008_item_location.sql` mirrors the rule in CHECK constraints as far as SQL can (control
/// characters, length, ASCII white space at the ends).
public struct ItemLocation: Hashable, Sendable, CustomStringConvertible {
    /// The longest location, counted in Unicode scalars (as SQLite's `length()` and
    /// PostgreSQL's `char_length()` count, so the CHECKs say the same).
    public static let maximumLength = 200

    /// The location's text, trimmed.
    public let text: String

    /// A location whose text is taken as it is: for values read back from the database, whose
    /// CHECKs keep the rule (a row written by hand is shown escaped, like a name).
    public init(stored text: String) {
        self.text = text
    }

    /// The location `raw` names, or nil when it is empty or blank (which means "none").
    ///
    /// - Throws: ``InventoryError/controlCharacterInLocation(_:position:)`` or
    ///   ``InventoryError/locationTooLong(_:)``.
    public static func parse(_ raw: String) throws(InventoryError) -> ItemLocation? {
        let trimmed = trimming(raw)
        if trimmed.isEmpty { return nil }
        if let problem = problem(in: trimmed) { throw problem }
        return ItemLocation(stored: trimmed)
    }

    /// The first rule trimmed `text` breaks, or nil.
    public static func problem(in text: String) -> InventoryError? {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if ControlCharacters.contains(scalar) { return .controlCharacterInLocation(scalar.value, position: count) }
        }
        if count > maximumLength { return .locationTooLong(count) }
        return nil
    }

    /// `raw` without the invisible characters (``ItemName/isInvisible(_:)``) at either end.
    static func trimming(_ raw: String) -> String {
        let scalars = raw.unicodeScalars
        guard let first = scalars.firstIndex(where: { !ItemName.isInvisible($0) }),
              let last = scalars.lastIndex(where: { !ItemName.isInvisible($0) }) else { return "" }
        return String(scalars[first...last])
    }

    public var description: String { text }
}
