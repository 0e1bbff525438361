import Foundation
import Inventory
import Testing

/// The declaration's fast walk and the item's packed id say the same as the plain forms they
/// stand in for.
@Suite struct ItemFieldDeclarationTests {
    @Test func forEachVisitsEveryFieldInTheDeclarationsOrder() {
        var visited: [ItemField] = []
        ItemField.forEach { visited.append($0) }
        #expect(visited == ItemField.allCases)
    }

    @Test func forEachStopsAtTheFirstError() {
        struct Stop: Error {}
        var visited: [ItemField] = []
        #expect(throws: Stop.self) {
            try ItemField.forEach { (field) throws(Stop) in
                visited.append(field)
                if field == .color { throw Stop() }
            }
        }
        #expect(visited == [.name, .color])
    }

    @Test func anItemGivesBackTheIdItWasMadeWith() throws {
        let ids = [UUID(), UUID.version7(), try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000000")),
                   try #require(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")),
                   try #require(UUID(uuidString: "0193A1F2-0000-7ABC-8DEF-0123456789AB"))]
        for id in ids {
            let item = Item(id: id, name: "Keyboard")
            #expect(item.id == id)
            #expect(item.id.uuidString == id.uuidString)
            #expect(item.id.lowercasedString == id.uuidString.lowercased())
        }
    }

    @Test func itemsAreEqualAndHashAlikeExactlyWhenTheirFieldsAre() throws {
        let id = UUID()
        let a = Item(id: id, name: "Keyboard", color: .blue, status: .inStock(quantity: 3))
        let b = Item(id: id, name: "Keyboard", color: .blue, status: .inStock(quantity: 3))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        var other = b
        other.location = try ItemLocation.parse("Shelf B3")
        #expect(a != other)
        #expect(a != Item(id: UUID(), name: "Keyboard", color: .blue, status: .inStock(quantity: 3)))
        // Ids that differ in either half.
        let low = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        let high = try #require(UUID(uuidString: "10000000-0000-0000-0000-000000000000"))
        #expect(Item(id: low, name: "x") != Item(id: high, name: "x"))
        #expect(Set([Item(id: low, name: "x"), Item(id: high, name: "x")]).count == 2)
    }
}
