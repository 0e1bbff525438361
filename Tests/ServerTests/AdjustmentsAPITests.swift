import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import StockroomTestSupport
import Testing

/// `POST /api/items/{id}/adjustments` and the list page's counter forms, on both engines.
@Suite("Adjustments") struct AdjustmentsAPITests {
    static let form = "application/x-www-form-urlencoded"

    @Test("an adjustment answers the item and its ETag; If-Match is optional; more than in stock is 422", arguments: Engine.allCases)
    func adjustments(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let id = try await client.add("Charger", color: "yellow", quantity: 3)
            let sold = try await client.send(.post, "/api/items/\(id)/adjustments", json: #"{"by":-1}"#)
            #expect(sold.status == .ok, "\(sold.text)")
            #expect(sold.headers[.eTag] == "\"2\"")
            #expect(sold.text == #"{"id":"\#(id)","name":"Charger","color":"yellow","status":{"case":"inStock","quantity":2}"# + ItemShape.jsonNulls + #","version":2}"# + "\n")
            let received = try await client.send(.post, "/api/items/\(id.prefix(8))/adjustments", json: #"{"by":10}"#, headers: [.ifMatch: "\"2\""])
            #expect(received.status == .ok && received.headers[.eTag] == "\"3\"", "\(received.text)")
            #expect(received.text.contains(#""quantity":12"#))
            let stale = try await client.send(.post, "/api/items/\(id)/adjustments", json: #"{"by":-1}"#, headers: [.ifMatch: "\"2\""])
            #expect(stale.status == .preconditionFailed && stale.object["currentVersion"] as? Int == 3)
            let tooMany = try await client.send(.post, "/api/items/\(id)/adjustments", json: #"{"by":-13}"#)
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany.headers[.contentType] == "application/problem+json")
            #expect(tooMany.object["detail"] as? String == "only 12 in stock, cannot take 13; nothing was changed")
            let last = try await client.send(.post, "/api/items/\(id)/adjustments", json: #"{"by":-12}"#)
            #expect(last.text.contains(#""status":{"case":"outOfStock","isOnBackOrder":false}"# + ItemShape.jsonNulls + #","version":4"#), "\(last.text)")
            let none = try await client.send(.post, "/api/items/\(id)/adjustments", json: #"{"by":0}"#)
            #expect(none.status == .ok && none.headers[.eTag] == "\"4\"")
            let missing = try await client.send(.post, "/api/items/00000000-0000-7000-8000-000000000000/adjustments", json: #"{"by":1}"#)
            #expect(missing.status == .notFound)
            for body in [#"{}"#, #"{"by":"1"}"#, #"{"by":1.5}"#, #"{"by":1,"why":"x"}"#, #"[1]"#, "by=1", #"{"by":99999999999999999999}"#] {
                let bad = try await client.send(.post, "/api/items/\(id)/adjustments", json: body)
                #expect(bad.status == .badRequest, "\(body): \(bad.status) \(bad.text)")
            }
            #expect(try await client.send(.post, "/api/items/\(id)/adjustments", json: #"{"by":1}"#, headers: [.ifMatch: "3"]).status == .badRequest)
            #expect(try await client.send(.post, "/api/items/\(id)/adjustments", json: "by=1", type: AdjustmentsAPITests.form).status == .unsupportedMediaType)
            // The API's history says each was an adjustment, by how many.
            let history = try await client.send(.get, "/api/items/\(id)/history")
            let events = try JSONSerialization.jsonObject(with: Data(history.text.utf8)) as? [[String: Any]] ?? []
            #expect(events.map { $0["adjustedBy"] as? Int } == [nil, -1, 10, -12], "\(history.text)")
        }
        // Four versions: added, and three adjustments; the refused and empty ones left nothing.
        let item = try #require(try fixture.store().items.list().first)
        let history = try fixture.store().items.history(id: item.id)
        #expect(history.map(\.event.case) == [.added, .changed, .changed, .changed])
        #expect(history.map(\.adjustedBy) == [nil, -1, 10, -12])
    }

    @Test("the list's rows: swatch, muted out-of-stock, and counter forms that adjust and come back", arguments: Engine.allCases)
    func listCounter(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let id = try await client.add("Keyboard", color: "blue", quantity: 1)
            let phone = try await client.add("Phone", color: nil, quantity: nil)
            let list = try await client.send(.get, "/?status=&search=o")
            #expect(list.text.contains(#"<span class="swatch swatch-blue" aria-hidden="true"></span>blue"#))
            #expect(list.text.contains(#"<tr id="item-\#(phone)" class="out-of-stock">"#))
            #expect(list.text.contains("<em>Out of stock</em>"))
            #expect(list.text.contains(#"<input type="hidden" name="duplicate" value="\#(id)">"#))
            #expect(list.text.contains(#"action="/items/\#(id)/adjustments""#))
            #expect(list.text.contains(#"<input type="hidden" name="back" value="search=o">"#))
            let sold = try await client.send(.post, "/items/\(id)/adjustments", json: "back=search%3Do&by=-1", type: AdjustmentsAPITests.form)
            #expect(sold.status == .seeOther)
            #expect(sold.headers[.location] == "/?search=o#item-\(id)")
            let refused = try await client.send(.post, "/items/\(id)/adjustments", json: "back=search%3Do&by=-1", type: AdjustmentsAPITests.form)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Keyboard: none in stock, cannot take 1; nothing was changed"))
            #expect(refused.text.contains(#"<tr id="item-\#(id)" class="out-of-stock">"#), "the list is shown again")
            let received = try await client.send(.post, "/items/\(id)/adjustments", json: "back=&by=5", type: AdjustmentsAPITests.form)
            #expect(received.headers[.location] == "/#item-\(id)")
            #expect(try await client.send(.post, "/items/\(id)/adjustments", json: "by=five", type: AdjustmentsAPITests.form).status == .badRequest)
            // What a form sends back cannot redirect elsewhere: only the list's own parameters survive.
            let away = try await client.send(.post, "/items/\(id)/adjustments", json: "back=%2F%2Fevil.example&by=1", type: AdjustmentsAPITests.form)
            #expect(away.headers[.location] == "/#item-\(id)")
        }
        let keyboard = try #require(try fixture.store().items.list().first { $0.name == "Keyboard" })
        #expect(keyboard.status == .inStock(quantity: 6))
        // The counter's forms are adjustments too, each recorded by its units.
        #expect(try fixture.store().items.history(id: keyboard.id).map(\.adjustedBy) == [nil, -1, 5, 1])
    }
}
