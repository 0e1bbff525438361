import FoundationEssentials
import Glibc

/// An item of the inventory.
public struct Item: Identifiable, Hashable, Sendable {
    /// The item's identity, stable for its whole life.
    public let id: UUID
    /// What the item is called; never blank once it is in the inventory.
    public var name: String
    /// The item's colour, or nil when it has none.
    public var color: Color?
    /// Whether, and how many, are in stock.
    public var status: Status
    /// Where the item is kept, or nil when that is not recorded.
    public var location: ItemLocation?

    /// The status of an item added without one (`items add` without `--quantity` or
    /// `--out-of-stock`, `POST /api/items` without `status`, a new draft): in stock, 1.
    public static let defaultStatus = Status.inStock(quantity: 1)

    /// Creates an item. Use ``validate()`` (or a repository, which does) before storing it.
    public init(id: UUID = UUID.version7(), name: String, color: Color? = nil, status: Status = Item.defaultStatus,
                location: ItemLocation? = nil) {
        self.id = id
        self.name = name
        self.color = color
        self.status = status
        self.location = location
    }

    /// Checks the rules of an item in the inventory: a name that is not blank, a valid status,
    /// each optional text by its rule.
    ///
    /// - Throws: ``InventoryError/controlCharacterInName(_:position:)``, ``InventoryError/blankName``
    ///   or ``InventoryError/invalidQuantity(_:)``.
    public func validate() throws {
        try ItemName.validate(name)
        if Item.isBlank(name) { throw InventoryError.blankName }
        try status.validate()
        for field in OptionalTextField.allCases {
            if let text = field.text(in: self), let problem = field.problem(in: text) { throw problem }
        }
    }

    /// True when `name` shows nothing (``ItemName/isBlank(_:)``).
    public static func isBlank(_ name: String) -> Bool {
        ItemName.isBlank(name)
    }
}
