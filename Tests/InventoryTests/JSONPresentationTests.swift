import Foundation
import Inventory
import StockroomTestSupport
import Testing

@Suite struct JSONPresentationTests {
    func parse(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func anItemHasTheDocumentedShapeAndKeyOrder() throws {
        let id = UUID(uuidString: "0193A1F2-0000-7000-8000-000000000001")!
        let text = JSONPresentation.object(for: Item(id: id, name: "Keyboard", color: .blue, status: .inStock(quantity: 100)))
        #expect(text == #"{"id":"0193a1f2-0000-7000-8000-000000000001","name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100}"# + ItemShape.jsonNulls + "}")
        let none = JSONPresentation.object(for: Item(id: id, name: "Phone", color: nil, status: .outOfStock(isOnBackOrder: true)))
        #expect(none.hasSuffix(#""color":null,"status":{"case":"outOfStock","isOnBackOrder":true}"# + ItemShape.jsonNulls + "}"))
    }

    @Test func anItemWithItsVersionEndsWithIt() throws {
        let id = UUID(uuidString: "0193A1F2-0000-7000-8000-000000000001")!
        let item = Item(id: id, name: "Mug", color: nil, status: .outOfStock(isOnBackOrder: false))
        #expect(JSONPresentation.object(for: item, version: 3)
            == #"{"id":"0193a1f2-0000-7000-8000-000000000001","name":"Mug","color":null,"status":{"case":"outOfStock","isOnBackOrder":false}"# + ItemShape.jsonNulls + #","version":3}"#)
        #expect(try parse(JSONPresentation.object(for: item, version: 12))["version"] as? Int == 12)
    }

    @Test func aDraftNamesItsCaseAndSource() throws {
        let source = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 3))
        let adding = IdentifiedDraft(draft: .newItem())
        let duplicating = IdentifiedDraft(draft: .duplicate(of: source))
        let a = try parse(JSONPresentation.object(for: adding))
        #expect(a["case"] as? String == "adding")
        #expect(a["sourceItemId"] is NSNull)
        let d = try parse(JSONPresentation.object(for: duplicating))
        #expect(d["case"] as? String == "duplicating")
        #expect(d["sourceItemId"] as? String == source.id.lowercasedString)
        #expect((d["item"] as? [String: Any])?["name"] as? String == "Keyboard")
    }

    @Test(arguments: ["plain", "quote \" and backslash \\", "line\nbreak\ttab\r", "control \u{01}\u{1F}", "émoji 🎉 中文", ""])
    func namesSurviveAJSONParser(_ name: String) throws {
        let text = JSONPresentation.object(for: Item(name: name))
        #expect(try parse(text)["name"] as? String == name)
    }
}
