/// A domain rule was broken.
public enum InventoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An item's name is empty or only whitespace.
    case blankName
    /// An in-stock quantity below 1.
    case invalidQuantity(Int)

    /// One line for the user.
    public var description: String {
        switch self {
        case .blankName: "an item's name must not be empty or blank"
        case .invalidQuantity(let quantity): "quantity must be at least \(Status.minimumQuantity) to be in stock (got \(quantity)); use out of stock instead"
        }
    }
}
