/// Where an item is kept ("Shelf B3"): text that is never blank, holds no control character,
/// has no invisible characters at either end and is at most ``maximumLength`` Unicode scalars
/// long. An item with no location has `location == nil`; empty or blank input means that.
///
/// The location is an optional text (``OptionalTextField/location``): its rule, its changes in
/// ``ItemEdit`` and ``ItemChanges``, and every path (codecs, history, import, export, JSON, the
/// fronts) are those of every optional text; this type and the accessors below only give it a
/// type of its own. The migration `0008_item_location.sql` mirrors the rule in CHECK
/// constraints as far as SQL can (control characters, length, ASCII white space at the ends).
public struct ItemLocation: Hashable, Sendable, CustomStringConvertible {
    /// The longest location, counted in Unicode scalars (as SQLite's `length()` and
    /// PostgreSQL's `char_length()` count, so the CHECKs say the same).
    public static let maximumLength = OptionalTextField.location.maximumLength

    /// The location's text, trimmed.
    public let text: String

    /// A location whose text is taken as it is, unchecked and untrimmed: for values read back
    /// from the database, whose CHECKs keep the rule (a row written by hand is shown escaped,
    /// like a name). For what a person typed, use ``parse(_:)``, which checks and trims it.
    @inlinable
    public init(stored text: String) {
        self.text = text
    }

    /// The location `raw` names, or nil when it is empty or blank (which means "none"), by the
    /// rule of ``OptionalTextField/parse(_:)``: how a location typed by a person becomes one.
    /// The text is trimmed; control characters and text longer than ``maximumLength`` are
    /// refused. Set it with `ItemEdit(location: .set(location))`, or in `Item(…, location:)`.
    ///
    /// ```swift
    /// if let shelf = try ItemLocation.parse(" Shelf B3 ") {   // "Shelf B3"
    ///     try store.items.update(id: id, with: ItemEdit(location: .set(shelf)))
    /// }
    /// ```
    ///
    /// - Throws: ``InventoryError/controlCharacterInText(_:_:position:)`` or
    ///   ``InventoryError/textTooLong(_:_:)``.
    public static func parse(_ raw: String) throws(InventoryError) -> ItemLocation? {
        try OptionalTextField.location.parse(raw).map(ItemLocation.init(stored:))
    }

    /// The first rule trimmed `text` breaks, or nil.
    public static func problem(in text: String) -> InventoryError? {
        OptionalTextField.location.problem(in: text)
    }

    public var description: String { text }
}

extension ItemEdit {
    /// How the location changes (``ItemEdit/texts`` for ``OptionalTextField/location``, typed).
    public enum LocationChange: Sendable, Equatable {
        /// Set this location.
        case set(ItemLocation)
        /// Remove the location.
        case remove
    }

    /// Creates an edit that also changes the location.
    public init(name: String? = nil, color: ColorChange? = nil, status: Status? = nil, location: LocationChange?) {
        self.init(name: name, color: color, status: status)
        self.location = location
    }

    /// The location change, if any.
    public var location: LocationChange? {
        get {
            switch texts[.location] {
            case .set(let text): .set(ItemLocation(stored: text))
            case .remove: .remove
            case nil: nil
            }
        }
        set {
            switch newValue {
            case .set(let location): texts[.location] = .set(location.text)
            case .remove: texts[.location] = .remove
            case nil: texts[.location] = nil
            }
        }
    }
}

extension ItemChanges {
    /// The changes, with the location's, or nil when there are none.
    public init?(name: FieldChange<String>?, color: FieldChange<Color?>?, status: FieldChange<Status>?,
                 location: FieldChange<ItemLocation?>?) {
        var texts: [OptionalTextField: FieldChange<String?>] = [:]
        texts[.location] = location.flatMap { FieldChange<String?>(from: $0.from?.text, to: $0.to?.text) }
        self.init(name: name, color: color, status: status, texts: texts)
    }

    /// The new location (or none), when it changed.
    public var location: FieldChange<ItemLocation?>? {
        texts[.location].flatMap { FieldChange(from: $0.from.map(ItemLocation.init(stored:)), to: $0.to.map(ItemLocation.init(stored:))) }
    }
}
