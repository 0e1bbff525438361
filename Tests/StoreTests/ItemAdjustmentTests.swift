import Foundation
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// `ItemRepository.adjust`: the counter's relative change, read and written in one write
/// transaction, on both engines.
@Suite struct ItemAdjustmentTests {
    @Test(arguments: Engine.allCases)
    func anAdjustmentIsOneChangedEventFromTheStoredQuantity(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Charger", color: .yellow, status: .inStock(quantity: 3))
        try test.store.items.insert(item)
        #expect(try test.store.items.adjust(id: item.id, by: -1).status == .inStock(quantity: 2))
        #expect(try test.store.items.adjust(id: item.id, by: 10).status == .inStock(quantity: 12))
        #expect(try test.store.items.adjust(id: item.id, by: -12).status == .outOfStock(isOnBackOrder: false))
        #expect(try test.store.items.item(id: item.id).status == .outOfStock(isOnBackOrder: false))
        let history = try test.store.items.history(id: item.id)
        #expect(history.map(\.version) == [1, 2, 3, 4])
        let statuses: [Status] = [.inStock(quantity: 3), .inStock(quantity: 2), .inStock(quantity: 12), .outOfStock(isOnBackOrder: false)]
        let expected = zip(statuses, statuses.dropFirst()).map { ItemEvent.changed(ItemChanges(name: nil, color: nil, status: FieldChange(from: $0, to: $1))!) }
        #expect(history.dropFirst().map(\.event) == expected)
    }

    @Test(arguments: Engine.allCases)
    func aRefusedAdjustmentChangesNothing(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Phone", status: .inStock(quantity: 2))
        try test.store.items.insert(item)
        #expect(throws: InventoryError.notEnoughInStock(available: 2, requested: 3)) {
            try test.store.items.adjust(id: item.id, by: -3)
        }
        #expect(try test.store.items.item(id: item.id) == item)
        #expect(try test.store.items.version(id: item.id) == 1)
        #expect(throws: StoreError.versionConflict(id: item.id.lowercasedString, expected: 5, current: 1)) {
            try test.store.items.adjust(id: item.id, by: -1, ifVersion: 5)
        }
        #expect(try test.store.items.item(id: item.id) == item)
        #expect(throws: StoreError.notFound(.item, UUID.zero.lowercasedString)) {
            try test.store.items.adjust(id: UUID.zero, by: 1)
        }
        #expect(try test.store.items.adjust(id: item.id, by: -1, ifVersion: 1).status == .inStock(quantity: 1))
        #expect(try test.store.items.version(id: item.id) == 2)
    }

    @Test(arguments: Engine.allCases)
    func byZeroRecordsNoVersion(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Headphones", status: .outOfStock(isOnBackOrder: true))
        try test.store.items.insert(item)
        #expect(try test.store.items.adjust(id: item.id, by: 0) == item)
        #expect(try test.store.items.version(id: item.id) == 1)
    }

    /// Threads with connections of their own selling one each at once, with no version
    /// given: every sale counts (the write transaction holds the read), the last ones refused.
    @Test(arguments: Engine.allCases)
    func concurrentSalesAllCountAndNoneGoesBelowEmpty(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let stock = 50
        let item = Item(name: "Counter", status: .inStock(quantity: stock))
        try test.store.items.insert(item)
        let location: DatabaseLocation = engine == .sqlite ? .file(test.path) : .postgres(test.schema!.uri)
        let writers = 6, salesEach = 10
        let failures = Failures(), refusals = Failures()
        DispatchQueue.concurrentPerform(iterations: writers) { _ in
            do {
                let store = try InventoryStore(location: location, busyTimeoutMilliseconds: 60_000)
                for _ in 0..<salesEach {
                    do {
                        try store.items.adjust(id: item.id, by: -1)
                    } catch let error as InventoryError {
                        refusals.append("\(error)")
                    }
                }
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(refusals.all.count == writers * salesEach - stock, "\(refusals.all)")
        #expect(refusals.all.allSatisfy { $0.hasPrefix("none in stock") }, "\(refusals.all)")
        #expect(try test.store.items.item(id: item.id).status == .outOfStock(isOnBackOrder: false))
        #expect(try test.store.items.history(id: item.id).map(\.version) == Array(1...(1 + stock)))
    }
}

extension UUID {
    static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
