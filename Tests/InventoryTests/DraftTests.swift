import Foundation
import Inventory
import Testing

@Suite struct DraftTests {
    let keyboard = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))

    @Test func aNewDraftStartsEmptyInStockOne() {
        let draft = Draft.newItem()
        guard case .adding(let item) = draft else { Issue.record("expected .adding"); return }
        #expect(item.name == "")
        #expect(item.color == nil)
        #expect(item.status == .inStock(quantity: 1))
        #expect(draft.sourceItemID == nil)
    }

    @Test func aDuplicateCopiesEverythingButTheIdAndRemembersItsSource() {
        let draft = Draft.duplicate(of: keyboard)
        guard case .duplicating(let copy, let source) = draft else { Issue.record("expected .duplicating"); return }
        #expect(source == keyboard.id)
        #expect(copy.id != keyboard.id)
        #expect(copy.name == keyboard.name)
        #expect(copy.color == keyboard.color)
        #expect(copy.status == keyboard.status)
    }

    @Test func editingKeepsTheCaseAndMayLeaveTheNameEmpty() throws {
        let draft = try Draft.duplicate(of: keyboard).applying(ItemEdit(name: "", color: .remove, status: .outOfStock(isOnBackOrder: true)))
        #expect(draft.sourceItemID == keyboard.id)
        #expect(draft.item.name == "")
        #expect(draft.item.color == nil)
        #expect(draft.item.status == .outOfStock(isOnBackOrder: true))
    }

    @Test(arguments: ["", " ", " \u{200B} ", "  \u{00A0} "])
    func savingNeedsANameThatIsNotBlank(_ name: String) throws {
        let draft = try Draft.newItem().applying(ItemEdit(name: name))
        #expect(throws: InventoryError.blankName) { try draft.itemToSave() }
    }

    @Test func savingYieldsTheDraftsItem() throws {
        let draft = try Draft.newItem().applying(ItemEdit(name: "Mouse", color: .set(.black)))
        let item = try draft.itemToSave()
        #expect(item == draft.item)
        #expect(item.name == "Mouse")
    }

    @Test(arguments: [0, -1, Int.min])
    func anInStockQuantityBelowOneIsRefused(_ quantity: Int) {
        #expect(throws: InventoryError.invalidQuantity(quantity)) {
            try Draft.newItem().applying(ItemEdit(status: .inStock(quantity: quantity)))
        }
        #expect(throws: InventoryError.invalidQuantity(quantity)) {
            try Item(name: "X", status: .inStock(quantity: quantity)).validate()
        }
    }
}

@Suite struct IdentifierTests {
    @Test func version7IdsAreTimeOrderedAndWellFormed() {
        let earlier = UUID.version7(now: Date(timeIntervalSince1970: 1_700_000_000))
        let later = UUID.version7(now: Date(timeIntervalSince1970: 1_700_000_001))
        #expect(earlier.lowercasedString < later.lowercasedString)
        let text = later.lowercasedString
        #expect(text.count == 36)
        #expect(text == text.lowercased())
        #expect(Array(text)[14] == "7")                    // version
        #expect("89ab".contains(Array(text)[19]))          // RFC 9562 variant
        #expect(UUID(uuidString: text) == later)
    }

    @Test func canonicalTextParsesInEitherCaseAndRejectsEverythingElse() {
        let id = UUID.version7()
        for text in [id.lowercasedString, id.uuidString] {
            let parsed = Array(text.utf8).withUnsafeBufferPointer { UUID(canonicalUTF8: $0) }
            #expect(parsed == id)
        }
        for bad in ["", "not-a-uuid", String(id.lowercasedString.dropLast()), id.lowercasedString.replacingOccurrences(of: "-", with: "x")] {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { UUID(canonicalUTF8: $0) } == nil)
        }
    }
}
