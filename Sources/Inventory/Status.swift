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
        if case .inStock = self { return true }
        return false
    }
}

extension Status: Codable {
    private enum CodingKeys: String, CodingKey {
        case `case`, quantity, isOnBackOrder
    }

    private enum Case: String, Codable {
        case inStock, outOfStock
    }

    /// Encodes as `{"case":"inStock","quantity":100}` or `{"case":"outOfStock","isOnBackOrder":true}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inStock(let quantity):
            try container.encode(Case.inStock, forKey: .case)
            try container.encode(quantity, forKey: .quantity)
        case .outOfStock(let isOnBackOrder):
            try container.encode(Case.outOfStock, forKey: .case)
            try container.encode(isOnBackOrder, forKey: .isOnBackOrder)
        }
    }

    /// Decodes the form written by ``encode(to:)``, validating the quantity.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Case.self, forKey: .case) {
        case .inStock:
            self = .inStock(quantity: try container.decode(Int.self, forKey: .quantity))
        case .outOfStock:
            self = .outOfStock(isOnBackOrder: try container.decode(Bool.self, forKey: .isOnBackOrder))
        }
        try validate()
    }
}
