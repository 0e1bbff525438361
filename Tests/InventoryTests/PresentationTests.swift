import Foundation
import Inventory
import Testing

@Suite struct PresentationTests {
    @Test func statusReadsAsThePeopleAtTheCounterSayIt() {
        #expect(Presentation.text(for: .inStock(quantity: 100)) == "In stock: 100")
        #expect(Presentation.text(for: .outOfStock(isOnBackOrder: false)) == "Out of stock")
        #expect(Presentation.text(for: .outOfStock(isOnBackOrder: true)) == "Out of stock: on back order")
    }

    @Test func aRowIsNameColourStatus() {
        let keyboard = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        #expect(Presentation.row(for: keyboard) == "Keyboard  blue  In stock: 100")
        let phone = Item(name: "Phone", color: .green, status: .outOfStock(isOnBackOrder: true))
        #expect(Presentation.row(for: phone) == "Phone  green  Out of stock: on back order")
        let plain = Item(name: "Cable", color: nil, status: .outOfStock(isOnBackOrder: false))
        #expect(Presentation.row(for: plain) == "Cable  -  Out of stock")
    }
}
