/// A relative change to what is in stock: the counter's "sold one", "received ten".
extension Status {
    /// The status after `change` more (positive) or fewer (negative) are in stock.
    ///
    /// - In stock `q`, by `d`: in stock `q + d` while that is at least 1; out of stock, not on
    ///   back order, when it is exactly 0 (the last one was taken; what was on order is a
    ///   separate fact the counter cannot know, so the flag starts false).
    /// - Out of stock, by `d > 0`: in stock `d` (a delivery arrived, on back order or not).
    /// - By 0: the status unchanged, back-order flag included: asking for no change is no change.
    /// - Taking more than is in stock (in stock `q`, by `d < -q`; out of stock, by `d < 0`) is
    ///   refused: the shelf cannot go below empty, and guessing would hide a miscount.
    /// - A quantity past `Int.max` is refused, never wrapped.
    ///
    /// - Throws: ``InventoryError/notEnoughInStock(available:requested:)`` or
    ///   ``InventoryError/quantityOverflow(_:by:)``.
    public func adjusted(by change: Int) throws -> Status {
        if change == 0 { return self }
        let available = quantityInStock
        let (total, overflow) = available.addingReportingOverflow(change)
        if overflow { throw InventoryError.quantityOverflow(available, by: change) }
        if total < 0 { throw InventoryError.notEnoughInStock(available: available, requested: change.magnitude) }
        return total == 0 ? .outOfStock(isOnBackOrder: false) : .inStock(quantity: total)
    }

    /// How many are in stock: the quantity, or 0 when out of stock.
    public var quantityInStock: Int {
        switch self {
        case .inStock(let quantity): quantity
        case .outOfStock: 0
        }
    }
}
