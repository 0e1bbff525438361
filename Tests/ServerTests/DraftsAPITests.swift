import DraftFlow
import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import Testing

/// `/api/drafts` and the wizard: the same steps, wording and checks as `draft wizard`.
@Suite("Drafts API") struct DraftsAPITests {
    @Test("drafts: create adding or duplicating, list, show, edit, cancel, save", arguments: Engine.allCases)
    func lifecycle(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let started = try await client.send(.post, "/api/drafts", json: #"{"name":"Hub"}"#)
            #expect(started.status == .created)
            let draftID = try #require(started.object["id"] as? String)
            #expect(started.headers[.location] == "/api/drafts/\(draftID)")
            let itemID = try await client.add("Keyboard", color: "blue", quantity: 5)
            let copy = try await client.send(.post, "/api/drafts", json: #"{"duplicate":"\#(itemID)"}"#)
            #expect(copy.status == .created)
            #expect(copy.object["case"] as? String == "duplicating")
            #expect(copy.object["sourceItemId"] as? String == itemID)
            let list = try await client.send(.get, "/api/drafts")
            #expect((try JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [Any])?.count == 2)
            let edited = try await client.send(.patch, "/api/drafts/\(draftID)", json: #"{"name":"","status":{"case":"outOfStock","isOnBackOrder":true}}"#,
                                               type: "application/merge-patch+json")
            #expect(edited.status == .ok, "\(edited.text)")
            // A blank name is allowed while editing, refused when saving: the CLI's rule and words.
            let refused = try await client.send(.post, "/api/drafts/\(draftID)/save")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.object["detail"] as? String == InventoryError.blankName.description)
            _ = try await client.send(.patch, "/api/drafts/\(draftID)", json: #"{"name":"USB hub"}"#)
            let saved = try await client.send(.post, "/api/drafts/\(draftID)/save")
            #expect(saved.status == .created)
            let newID = try #require(saved.object["id"] as? String)
            #expect(saved.headers[.location] == "/api/items/\(newID)")
            #expect(try await client.send(.get, "/api/drafts/\(draftID)").status == .notFound)
            let copyID = try #require(copy.object["id"] as? String)
            #expect(try await client.send(.delete, "/api/drafts/\(copyID)").status == .noContent)
            #expect(try await client.send(.delete, "/api/drafts/\(copyID)").status == .notFound)
        }
        let names = try fixture.store().items.list().map(\.name)
        #expect(names == ["Keyboard", "USB hub"])
    }

    @Test("the wizard over HTTP: every branch, back, a re-ask with the terminal's reason, and save")
    func wizard() async throws {
        let fixture = try await ServerFixture()
        // A draft started in the terminal's way (the store), finished over HTTP.
        let entry = try fixture.store().drafts.startAdding()
        let id = entry.id.lowercasedString
        try await fixture.test { client in
            let first = try await client.send(.get, "/api/drafts/\(id)/wizard")
            #expect(first.object["step"] as? String == "name")
            #expect(first.object["prompt"] as? [String] == WizardPresentation.prompt(for: .name(current: "")))
            func answer(_ step: String, _ text: String) async throws -> TestResponse {
                try await client.send(.post, "/api/drafts/\(id)/wizard", json: #"{"step":"\#(step)","answer":"\#(text)"}"#)
            }
            let blank = try await answer("name", "")
            #expect(blank.status == .unprocessableContent)
            #expect(blank.object["reason"] as? String == WizardPresentation.reason(for: .invalidName(reason: InventoryError.blankName.description)))
            #expect(try await answer("name", "Phone").object["step"] as? String == "color")
            #expect(try await answer("color", "purple").object["reason"] as? String == WizardPresentation.reason(for: .unknownColor))
            #expect(try await answer("color", "green").object["step"] as? String == "location")
            #expect(try await answer("location", "a\\tb").object["reason"] as? String
                    == WizardPresentation.reason(for: .invalidLocation(reason: InventoryError.controlCharacterInText(.location, 9, position: 2).description)))
            #expect(try await answer("location", " Shelf B3 ").object["step"] as? String == "inStock")
            // No: the back-order branch; back (<) returns to the question before it.
            let backOrder = try await answer("inStock", "n")
            #expect(backOrder.object["step"] as? String == "backOrder")
            #expect(backOrder.object["path"] as? [String] == ["name", "color", "location", "inStock", "backOrder", "review"])
            #expect(try await answer("backOrder", "<").object["step"] as? String == "inStock")
            // Yes: the quantity branch, a bad quantity re-asked.
            #expect(try await answer("inStock", "y").object["step"] as? String == "quantity")
            #expect(try await answer("quantity", "0").object["reason"] as? String == WizardPresentation.reason(for: .invalidQuantity))
            let review = try await answer("quantity", "7")
            #expect(review.object["step"] as? String == "review")
            #expect((review.object["prompt"] as? [String])?.last == WizardPresentation.reviewChoices)
            #expect(try await answer("review", "x").object["reason"] as? String == WizardPresentation.reason(for: .unknownReviewChoice))
            #expect(try await answer("review", "e").object["step"] as? String == "name")
            let saved = try await answer("review", "s")
            #expect(saved.status == .created)
            #expect(saved.object["finished"] as? String == "save")
            #expect(try await client.send(.get, "/api/drafts/\(id)/wizard?step=bogus").status == .badRequest)
        }
        let items = try fixture.store().items.list()
        #expect(items.map(\.name) == ["Phone"])
        #expect(items.first?.color == .green)
        #expect(items.first?.status == .inStock(quantity: 7))
        #expect(items.first?.location?.text == "Shelf B3")
    }
    @Test("the wizard over HTTP remembers the quantity across no and back to yes, as the terminal's wizard does", arguments: Engine.allCases)
    func rememberedQuantity(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let entry = try fixture.store().drafts.startAdding()
        let id = entry.id.lowercasedString
        // Yes with 5, back, no (the back-order branch), back, yes again: the quantity offered is 5.
        let answers: [(step: String, text: String)] = [("name", "Phone"), ("color", ""), ("location", ""), ("inStock", "y"), ("quantity", "5"),
                                                       ("review", "<"), ("quantity", "<"), ("inStock", "n"), ("backOrder", "<"),
                                                       ("inStock", "y"), ("quantity", ""), ("review", "s")]
        // The terminal's wizard: one state machine kept between questions.
        var terminal = DraftWizard(entry: entry)
        var offeredByTerminal: [WizardStep] = []
        for answer in answers {
            offeredByTerminal.append(terminal.step)
            guard case .next(let next, _) = terminal.answering(answer.text) else { break }
            terminal = next
        }
        let offered = try await fixture.test { client in
            var steps: [[String: Any]] = [try await client.send(.get, "/api/drafts/\(id)/wizard").object]
            for answer in answers.dropLast() {
                let remembered = try JSONSerialization.data(withJSONObject: steps.last?["remembered"] ?? [:])
                let body = #"{"step":"\#(answer.step)","answer":"\#(answer.text)","remembered":\#(String(decoding: remembered, as: UTF8.self))}"#
                let response = try await client.send(.post, "/api/drafts/\(id)/wizard", json: body)
                #expect(response.status == .ok, "\(response.text)")
                steps.append(response.object)
            }
            let saved = try await client.send(.post, "/api/drafts/\(id)/wizard", json: #"{"step":"review","answer":"s"}"#)
            #expect(saved.status == .created, "\(saved.text)")
            return steps.map { $0["prompt"] as? [String] ?? [] }
        }
        #expect(offered == offeredByTerminal.map(WizardPresentation.prompt(for:)))
        #expect(offeredByTerminal[10] == .quantity(current: 5))
        #expect(try fixture.store().items.list().map(\.status) == [.inStock(quantity: 5)])
    }

    @Test("a remembered quantity the domain refuses is not offered; half a memory is a 400")
    func rememberedChecks() async throws {
        let fixture = try await ServerFixture()
        let entry = try fixture.store().drafts.startAdding(ItemEdit(name: "Phone", status: .outOfStock(isOnBackOrder: false)))
        let id = entry.id.lowercasedString
        try await fixture.test { client in
            let body = #"{"step":"inStock","answer":"y","remembered":{"quantity":0,"isOnBackOrder":false}}"#
            let next = try await client.send(.post, "/api/drafts/\(id)/wizard", json: body)
            #expect(next.object["step"] as? String == "quantity")
            #expect(next.object["prompt"] as? [String] == WizardPresentation.prompt(for: .quantity(current: Status.minimumQuantity)))
            let half = try await client.send(.get, "/api/drafts/\(id)/wizard?step=quantity&remembered-quantity=4")
            #expect(half.status == .badRequest)
            // The draft is in stock now: its stored quantity wins over the one carried.
            let whole = try await client.send(.get, "/api/drafts/\(id)/wizard?step=inStock&remembered-quantity=4&remembered-back-order=true")
            #expect((whole.object["remembered"] as? [String: Any])?["quantity"] as? Int == Status.minimumQuantity)
        }
    }
}
