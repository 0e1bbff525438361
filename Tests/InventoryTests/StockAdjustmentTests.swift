import Inventory
import Testing

/// The counter's rule (``Status/adjusted(by:)``), case by case.
@Suite struct StockAdjustmentTests {
    @Test(arguments: [(5, -1, 4), (5, 3, 8), (1, 1, 2), (2, -1, 1), (100, -99, 1)])
    func inStockStaysInStockWhileOneOrMoreAreLeft(quantity: Int, change: Int, expected: Int) throws {
        #expect(try Status.inStock(quantity: quantity).adjusted(by: change) == .inStock(quantity: expected))
    }

    @Test func takingTheLastOneLeavesItOutOfStockNotOnBackOrder() throws {
        #expect(try Status.inStock(quantity: 1).adjusted(by: -1) == .outOfStock(isOnBackOrder: false))
        #expect(try Status.inStock(quantity: 7).adjusted(by: -7) == .outOfStock(isOnBackOrder: false))
    }

    @Test(arguments: [false, true])
    func receivingIntoAnEmptyShelfPutsExactlyThatManyInStock(onBackOrder: Bool) throws {
        #expect(try Status.outOfStock(isOnBackOrder: onBackOrder).adjusted(by: 10) == .inStock(quantity: 10))
        #expect(try Status.outOfStock(isOnBackOrder: onBackOrder).adjusted(by: 1) == .inStock(quantity: 1))
    }

    @Test(arguments: [Status.inStock(quantity: 3), .outOfStock(isOnBackOrder: true), .outOfStock(isOnBackOrder: false)])
    func byZeroChangesNothingNotEvenTheBackOrderFlag(status: Status) throws {
        #expect(try status.adjusted(by: 0) == status)
    }

    @Test func takingMoreThanIsInStockIsRefusedSayingHowManyThereAre() {
        #expect(throws: InventoryError.notEnoughInStock(available: 2, requested: 3)) {
            try Status.inStock(quantity: 2).adjusted(by: -3)
        }
        #expect(InventoryError.notEnoughInStock(available: 2, requested: 3).description
                == "only 2 in stock, cannot take 3; nothing was changed")
    }

    @Test(arguments: [false, true])
    func takingFromAnEmptyShelfIsRefused(onBackOrder: Bool) {
        #expect(throws: InventoryError.notEnoughInStock(available: 0, requested: 1)) {
            try Status.outOfStock(isOnBackOrder: onBackOrder).adjusted(by: -1)
        }
        #expect(InventoryError.notEnoughInStock(available: 0, requested: 1).description
                == "none in stock, cannot take 1; nothing was changed")
    }

    @Test func theExtremesNeitherWrapNorTrap() {
        #expect(throws: InventoryError.quantityOverflow(Int.max, by: 1)) { try Status.inStock(quantity: Int.max).adjusted(by: 1) }
        #expect(throws: InventoryError.notEnoughInStock(available: 5, requested: UInt(Int.max) + 1)) {
            try Status.inStock(quantity: 5).adjusted(by: Int.min)
        }
        #expect((try? Status.outOfStock(isOnBackOrder: false).adjusted(by: Int.max)) == .inStock(quantity: Int.max))
    }

    @Test func theResultIsAlwaysAValidStatus() throws {
        for quantity in [1, 2, 3, 10] {
            for change in -12...12 {
                guard let result = try? Status.inStock(quantity: quantity).adjusted(by: change) else {
                    #expect(quantity + change < 0)
                    continue
                }
                try result.validate()
                #expect(result.quantityInStock == quantity + change)
            }
        }
    }
}
