/// A domain rule was broken.
public enum InventoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An item's name is empty or only white space and invisible characters (``ItemName/isBlank(_:)``).
    case blankName
    /// A name holds a control character (its code point, and its 1-based position in the name
    /// counted in Unicode scalars).
    case controlCharacterInName(UInt32, position: Int)
    /// An in-stock quantity below 1.
    case invalidQuantity(Int)
    /// An optional text (a location, say) holds a control character (its code point, and its
    /// 1-based position in the trimmed text counted in Unicode scalars).
    case controlCharacterInText(OptionalTextField, UInt32, position: Int)
    /// An optional text longer than its ``OptionalTextField/maximumLength`` Unicode scalars (its length).
    case textTooLong(OptionalTextField, Int)
    /// An adjustment would take more than is in stock (``Status/adjusted(by:)``): how many
    /// there are, and how many it asked to take.
    case notEnoughInStock(available: Int, requested: UInt)
    /// An adjustment would carry the quantity past the largest whole number stored.
    case quantityOverflow(Int, by: Int)

    /// True when the input itself is malformed (a control character, a text too long), as
    /// opposed to a well-formed value the inventory's rules refuse: the CLI's usage error, the
    /// server's 400, where the others are a data error and a 422.
    public var isMalformedInput: Bool {
        switch self {
        case .controlCharacterInName, .controlCharacterInText, .textTooLong: true
        case .blankName, .invalidQuantity, .notEnoughInStock, .quantityOverflow: false
        }
    }

    /// One line for the user.
    public var description: String {
        switch self {
        case .blankName: "an item's name must not be empty or blank (spaces, no-break and zero-width characters count as blank)"
        case .controlCharacterInName(let value, let position):
            "the name contains a control character (\(ItemName.codePoint(value))) at position \(position); names may not hold tabs, line breaks or terminal escapes"
        case .controlCharacterInText(let field, let value, let position):
            "the \(field.word) contains a control character (\(ItemName.codePoint(value))) at position \(position); \(field.word)s may not hold tabs, line breaks or terminal escapes"
        case .textTooLong(let field, let length):
            "a \(field.word) is at most \(field.maximumLength) characters (got \(length))"
        case .invalidQuantity(let quantity): "quantity must be at least \(Status.minimumQuantity) to be in stock (got \(quantity)); use out of stock instead"
        case .notEnoughInStock(let available, let requested):
            "\(available == 0 ? "none" : "only \(available)") in stock, cannot take \(requested); nothing was changed"
        case .quantityOverflow(let quantity, let change):
            "\(quantity) in stock by \(change) is more than \(Int.max), the most that can be counted; nothing was changed"
        }
    }
}
