/// Whether an item can be had, with exactly the facts that matter for each case.
public enum Status: Hashable, Sendable {
    /// In stock, with how many; `quantity` is at least 1 (zero in stock is `outOfStock`).
    case inStock(quantity: Int)
    /// None in stock; `isOnBackOrder` tells whether more have been ordered.
    case outOfStock(isOnBackOrder: Bool)

    /// The smallest quantity an in-stock item can have.
    public static let minimumQuantity = 1

    /// Checks the rule the type cannot express on its own: an in-stock quantity is at least 1.
    ///
    /// - Throws: ``InventoryError/invalidQuantity(_:)``.
    public func validate() throws {
        if case .inStock(let quantity) = self, quantity < Status.minimumQuantity {
            throw InventoryError.invalidQuantity(quantity)
        }
    }

    /// True for `inStock`.
    public var isInStock: Bool {
        // A switch, not `if case`: a new case must say which side it is on.
        switch self {
        case .inStock: true
        case .outOfStock: false
        }
    }
}
