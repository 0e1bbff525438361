import DraftFlow
import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import Testing

/// The pages without a browser: plain forms posted as a browser without JavaScript would, on
/// both engines (the contract-suite way).
@Suite("Web pages") struct PagesTests {
    static let form = "application/x-www-form-urlencoded"

    @Test("the list filters; a form adds an item; a bad form is shown again with the reason", arguments: Engine.allCases)
    func listAndAdd(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try fixture.store().items.insert(contentsOf: [Item(name: "Cable", color: .red), Item(name: "Big keyboard", status: .outOfStock(isOnBackOrder: false))])
        try await fixture.test { client in
            let all = try await client.send(.get, "/")
            #expect(all.status == .ok && all.headers[.contentType] == "text/html; charset=utf-8")
            #expect(all.text.contains(">Cable<") && all.text.contains(">Big keyboard<"))
            // A form's query: `+` is a space.
            let filtered = try await client.send(.get, "/?status=out-of-stock&search=BIG+key")
            #expect(!filtered.text.contains(">Cable<") && filtered.text.contains(">Big keyboard<"))
            #expect(try await client.send(.get, "/?status=bogus").status == .badRequest)
            let added = try await client.send(.post, "/items", json: "name=USB+hub&color=blue&status=in-stock&quantity=7", type: PagesTests.form)
            #expect(added.status == .seeOther)
            #expect(added.headers[.location]?.hasPrefix("/items/") == true)
            let blank = try await client.send(.post, "/items", json: "name=+&color=&status=in-stock&quantity=1", type: PagesTests.form)
            #expect(blank.status == .unprocessableContent)
            #expect(blank.text.contains(HTML.escape(InventoryError.blankName.description)))
            let quantity = try await client.send(.post, "/items", json: "name=A&status=in-stock&quantity=", type: PagesTests.form)
            #expect(quantity.status == .unprocessableContent)
            #expect(try await client.send(.post, "/items", json: "{}", type: "application/json").status == .unsupportedMediaType)
            #expect(try await client.send(.get, "/assets/style.css").status == .ok)
            #expect(try await client.send(.get, "/assets/live.js").headers[.contentType] == "text/javascript; charset=utf-8")
        }
        let items = try fixture.store().items.list()
        #expect(items.map(\.name) == ["Big keyboard", "Cable", "USB hub"])
        #expect(items.last?.color == .blue && items.last?.status == .inStock(quantity: 7))
    }

    @Test("a stale edit or delete shows a conflict and changes nothing; a current one applies", arguments: Engine.allCases)
    func staleEditAndDelete(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let item = Item(name: "Charger", color: .yellow, status: .inStock(quantity: 20))
        try store.items.insert(item)
        try store.items.update(id: item.id, with: ItemEdit(status: .inStock(quantity: 19)))
        let id = item.id.lowercasedString
        try await fixture.test { client in
            let stale = try await client.send(.post, "/items/\(id)", json: "version=1&name=Charger+2&color=yellow&status=in-stock&quantity=5", type: PagesTests.form)
            #expect(stale.status == .conflict)
            #expect(stale.text.contains("changed by someone else") && stale.text.contains("In stock: 19") && stale.text.contains("Charger 2"))
            let staleDelete = try await client.send(.post, "/items/\(id)/delete", json: "version=1", type: PagesTests.form)
            #expect(staleDelete.status == .conflict)
            let edited = try await client.send(.post, "/items/\(id)", json: "version=2&name=Charger+2&color=&status=on-back-order", type: PagesTests.form)
            #expect(edited.status == .seeOther)
            let page = try await client.send(.get, "/items/\(id)")
            #expect(page.text.contains("Out of stock: on back order") && page.text.contains("name=\"version\" value=\"3\""))
            #expect(try await client.send(.get, "/items/\(id)/delete").text.contains("Delete item?"))
            #expect(try await client.send(.post, "/items/\(id)/delete", json: "version=3", type: PagesTests.form).status == .seeOther)
            let gone = try await client.send(.get, "/items/\(id)")
            #expect(gone.status == .notFound && gone.text.contains("history is kept"))
        }
        #expect(try store.items.count() == 0)
    }

    @Test("the drafts page lists a conflict's draft: why, the hub's item and the wanted one, the replica and when; saving it through the API resolves it", arguments: Engine.allCases)
    func conflictsOnTheDraftsPage(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let hub = Item(name: "Keyboard", color: .blue, status: .outOfStock(isOnBackOrder: false))
        let origin = UUID.version7()
        let conflict = Conflict(id: UUID.version7(), itemID: hub.id, hubItem: hub, replicaCopy: hub, origin: origin,
                                madeAt: "2026-11-28T10:00:00.000Z", reason: .oversold(adjustment: -3, missing: 1))
        _ = try store.write { try store.drafts.open(conflict) }
        try store.drafts.startAdding(ItemEdit(name: "Mouse"))
        try await fixture.test { client in
            let page = try await client.send(.get, "/drafts")
            #expect(page.status == .ok)
            let conflicts = try #require(page.text.components(separatedBy: "<tbody id=\"conflicts\">").last)
            #expect(conflicts.contains(">oversold, 1 missing<"), "\(page.text)")
            #expect(conflicts.contains("<td>Keyboard  blue  Out of stock  -</td>"), "\(page.text)")
            #expect(conflicts.contains(Presentation.shortID(origin)) && conflicts.contains("2026-11-28T10:00:00.000Z"))
            #expect(!conflicts.contains("Mouse"), "the new item's draft is in the drafts table, not here")
            let wizard = try await client.send(.get, "/drafts/\(conflict.id.lowercasedString)/wizard")
            #expect(wizard.status == .ok && wizard.text.contains("Resolving a conflict (oversold, 1 missing)"), "\(wizard.text)")
            #expect(wizard.text.contains("The hub: Keyboard  blue  Out of stock  -."))
            let json = try await client.send(.get, "/api/drafts/\(conflict.id.lowercasedString)")
            #expect(json.object["case"] as? String == "resolving")
            #expect((json.object["conflict"] as? [String: Any])?["missing"] as? Int == 1)
            // Saving it through the API resolves it, as `draft save` does: the conflict closes.
            let save = try await client.send(.post, "/api/drafts/\(conflict.id.lowercasedString)/save")
            #expect(save.status == .ok, "a resolution, not a new item: \(save.text)")
        }
        #expect(try store.drafts.openConflicts().isEmpty)
    }

    @Test("the wizard pages: one question each, the terminal's label and reasons, back, and save", arguments: Engine.allCases)
    func wizard(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let started = try await client.send(.post, "/drafts", json: "", type: PagesTests.form)
            #expect(started.status == .seeOther)
            let location = try #require(started.headers[.location])
            let first = try await client.send(.get, location)
            #expect(first.text.contains("<label for=\"answer\">Name</label>"))
            func post(_ body: String) async throws -> TestResponse {
                try await client.send(.post, location, json: body, type: PagesTests.form)
            }
            let blank = try await post("step=name&answer=&action=next")
            #expect(blank.status == .unprocessableContent)
            #expect(blank.text.contains(HTML.escape(WizardPresentation.reason(for: .invalidName(reason: InventoryError.blankName.description)))))
            /// Where an answer leads: the step named first, then the wizard's memory.
            func step(_ response: TestResponse) -> String? {
                response.headers[.location].map { String($0.split(separator: "&").first ?? "") }
            }
            #expect(step(try await post("step=name&answer=Lamp&action=next")) == location + "?step=color")
            #expect(step(try await post("step=color&answer=none&action=back")) == location + "?step=name")
            #expect(step(try await post("step=color&answer=white")) == location + "?step=location")
            #expect(step(try await post("step=location&answer=")) == location + "?step=inStock")
            let inStock = try await client.send(.get, location + "?step=inStock")
            #expect(inStock.text.contains("<legend>In stock? [Y/n]</legend>"))
            #expect(step(try await post("step=inStock&answer=y")) == location + "?step=quantity")
            let toReview = try await post("step=quantity&answer=3")
            #expect(step(toReview) == location + "?step=review")
            // The memory rides in the URL and the form: no, back, yes offers the 3 again.
            let memory = "remembered-quantity=3&remembered-back-order=false"
            #expect(toReview.headers[.location] == location + "?step=review&" + memory)
            let review = try await client.send(.get, try #require(toReview.headers[.location]))
            #expect(review.text.contains("Lamp"))
            #expect(review.text.contains(#"<input type="hidden" name="remembered-quantity" value="3">"#))
            #expect(try await post("step=inStock&answer=n&" + memory).headers[.location] == location + "?step=backOrder&" + memory)
            #expect(try await post("step=backOrder&answer=&action=back&" + memory).headers[.location] == location + "?step=inStock&" + memory)
            let again = try await post("step=inStock&answer=y&" + memory)
            #expect(again.headers[.location] == location + "?step=quantity&" + memory)
            let quantity = try await client.send(.get, try #require(again.headers[.location]))
            #expect(quantity.text.contains(#"type="number" inputmode="numeric" value="3""#))
            #expect(step(try await post("step=quantity&answer=3&" + memory)) == location + "?step=review")
            let saved = try await post("step=review&answer=s")
            #expect(saved.headers[.location]?.hasPrefix("/items/") == true)
        }
        #expect(try fixture.store().items.list().map(\.name) == ["Lamp"])
        #expect(try fixture.store().items.list().map(\.status) == [.inStock(quantity: 3)])
    }

    @Test("an upload with a bad row lists it by line and imports nothing; a good one imports", arguments: Engine.allCases)
    func upload(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            func upload(_ content: String, fileName: String = "items.jsonl") async throws -> TestResponse {
                let boundary = "----stockroom-test"
                let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\nContent-Type: application/octet-stream\r\n\r\n\(content)\r\n"
                    + "--\(boundary)\r\nContent-Disposition: form-data; name=\"on-conflict\"\r\n\r\nfail\r\n--\(boundary)--\r\n"
                return try await client.send(.post, "/import", json: body, type: "multipart/form-data; boundary=\(boundary)")
            }
            let bad = try await upload("name,status,quantity\r\nGood,in_stock,1\r\nBad,in_stock,0\r\n", fileName: "items.csv")
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("<tr><td>3</td>"), "\(bad.text)")
            let good = try await upload(#"{"name":"Uploaded","status":{"case":"inStock","quantity":1}}"# + "\n")
            #expect(good.status == .ok && good.text.contains("Imported 1 items"))
            #expect(try await client.send(.post, "/import", json: "x", type: "text/plain").status == .unsupportedMediaType)
        }
        #expect(try fixture.store().items.list().map(\.name) == ["Uploaded"])
    }
}
