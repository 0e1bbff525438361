import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import Testing

/// StatusTagPathTests' server path (that suite is in StoreTests, which does not build the web
/// front): every `Status` tag through the API's request bodies and answers, the OpenAPI
/// document, the item form and its page, on both engines; and every event kind and draft kind
/// as the document and the live page's script name them. A new status case that the web front
/// forgets fails here (or, through the exhaustive switches, does not compile).
@Suite struct StatusTagServerPathTests {
    /// Every tag, with the statuses of it worth sending (each associated value's edges).
    static let statusesByTag: [(tag: StatusCodec.Tag, statuses: [Status])] = StatusCodec.Tag.allCases.map { tag in
        let statuses: [Status] = switch tag {
        case .inStock: [.inStock(quantity: Status.minimumQuantity), .inStock(quantity: 100)]
        case .outOfStock: [.outOfStock(isOnBackOrder: false), .outOfStock(isOnBackOrder: true)]
        }
        return (tag, statuses)
    }

    static var allStatuses: [Status] { statusesByTag.flatMap(\.statuses) }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    static var schemas: [String: Any] {
        (OpenAPICheck.document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
    }

    @Test func theWalkedStatusesCoverEveryTag() {
        #expect(Self.statusesByTag.map(\.tag) == StatusCodec.Tag.allCases)
        for (tag, statuses) in Self.statusesByTag {
            #expect(statuses.allSatisfy { StatusCodec.tag(of: $0) == tag }, "\(tag)")
        }
    }

    @Test func theJSONCaseOfEveryTagIsTheOnePresentationWrites() {
        for tag in StatusCodec.Tag.allCases {
            let written = Self.json(JSONPresentation.object(for: StatusCodec.example(of: tag)))["case"] as? String
            #expect(written == StatusCodec.jsonCaseName(for: tag), "\(tag)")
            #expect(StatusCodec.tag(jsonCaseName: StatusCodec.jsonCaseName(for: tag)) == tag)
        }
        #expect(StatusCodec.tag(jsonCaseName: "bogus") == nil)
        #expect(Set(TagSpellings.statusCases).count == StatusCodec.Tag.allCases.count)
    }

    @Test func theOpenAPIDocumentNamesEveryStatusEventKindDraftKindAndFilter() throws {
        let status = try #require(Self.schemas["Status"] as? [String: Any])
        let variants = try #require(status["oneOf"] as? [[String: Any]])
        let consts = variants.map { (($0["properties"] as? [String: Any])?["case"] as? [String: Any])?["const"] as? String }
        #expect(consts == StatusCodec.Tag.allCases.map { StatusCodec.jsonCaseName(for: $0) })
        for (variant, tag) in zip(variants, StatusCodec.Tag.allCases) {
            // Each variant's properties are exactly the keys the presentation writes for the tag.
            let keys = Set((variant["properties"] as? [String: Any] ?? [:]).keys)
            #expect(keys == Set(Self.json(JSONPresentation.object(for: StatusCodec.example(of: tag))).keys), "\(tag)")
        }
        let event = (Self.schemas["Event"] as? [String: Any])?["properties"] as? [String: Any]
        #expect((event?["kind"] as? [String: Any])?["enum"] as? [String] == ItemEvent.Case.allCases.map(\.rawValue))
        let draft = (Self.schemas["Draft"] as? [String: Any])?["properties"] as? [String: Any]
        #expect((draft?["case"] as? [String: Any])?["enum"] as? [String] == Draft.Case.allCases.map(\.rawValue))
        let list = ((OpenAPICheck.document["paths"] as? [String: Any])?["/api/items"] as? [String: Any])?["get"] as? [String: Any]
        let parameters = list?["parameters"] as? [[String: Any]] ?? []
        let filter = parameters.first { $0["name"] as? String == "status" }?["schema"] as? [String: Any]
        #expect(filter?["enum"] as? [String] == ItemQuery.StatusFilter.allCases.map(\.text))
    }

    @Test func theLivePageListensToEveryEventKind() {
        for kind in ItemEvent.Case.allCases {
            #expect(Assets.live.contains("\"\(kind.rawValue)\""), "\(kind)")
        }
    }

    @Test("every status is created, read and patched through the API as its presentation writes it", arguments: Engine.allCases)
    func everyStatusThroughTheAPI(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let statuses = Self.allStatuses
        let ids = try await fixture.test { client in
            var ids: [String] = []
            for (index, status) in statuses.enumerated() {
                let body = #"{"name":"Item \#(index)","status":\#(JSONPresentation.object(for: status))}"#
                let created = try await client.send(.post, "/api/items", json: body)
                #expect(created.status == .created, "\(status): \(created.text)")
                let id = try #require(created.object["id"] as? String)
                let shown = try await client.send(.get, "/api/items/\(id)")
                #expect(shown.text.contains(#""status":\#(JSONPresentation.object(for: status))"#), "\(shown.text)")
                ids.append(id)
            }
            // Each item patched to the next status (the last to the first): every tag is also
            // reached by a change.
            for (index, id) in ids.enumerated() {
                let next = statuses[(index + 1) % statuses.count]
                let patched = try await client.send(.patch, "/api/items/\(id)", json: #"{"status":\#(JSONPresentation.object(for: next))}"#,
                                                    type: "application/merge-patch+json", headers: [.ifMatch: "\"1\""])
                #expect(patched.status == .ok, "\(next): \(patched.text)")
            }
            let unknown = try await client.send(.post, "/api/items", json: #"{"name":"X","status":{"case":"bogus"}}"#)
            // Well-formed JSON that names no status is content the rules refuse (422).
            #expect(unknown.status == .unprocessableContent)
            #expect(TagSpellings.statusCases.allSatisfy { unknown.text.contains($0) }, "\(unknown.text)")
            return ids
        }
        let store = try fixture.store()
        for (index, id) in ids.enumerated() {
            #expect(try store.items.item(id: store.items.resolveID(id)).status == statuses[(index + 1) % statuses.count])
        }
    }

    @Test("every status is chosen in the item form and shown chosen on its page", arguments: Engine.allCases)
    func everyStatusThroughTheForm(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let statuses = Self.allStatuses
        // Every status has a choice that gives it back, and every choice is some status's.
        let choices = statuses.map(TagSpellings.choice(for:))
        #expect(Set(choices.map(\.text)) == Set(ItemQuery.StatusFilter.allCases.map(\.text)))
        try await fixture.test { client in
            for (index, status) in statuses.enumerated() {
                let quantity = if case .inStock(let quantity) = status { String(quantity) } else { "" }
                let choice = TagSpellings.choice(for: status).text
                let added = try await client.send(.post, "/items", json: "name=Item+\(index)&status=\(choice)&quantity=\(quantity)",
                                                  type: PagesTests.form)
                #expect(added.status == .seeOther, "\(status): \(added.text)")
                let location = try #require(added.headers[.location])
                let page = try await client.send(.get, location)
                #expect(page.text.contains("<option value=\"\(choice)\" selected>"), "\(status)")
                // The form offers every choice.
                for other in ItemQuery.StatusFilter.allCases {
                    #expect(page.text.contains("<option value=\"\(other.text)\""), "\(other)")
                }
            }
            #expect(try await client.send(.post, "/items", json: "name=X&status=bogus", type: PagesTests.form).status == .badRequest)
        }
        let stored = try fixture.store().items.list()
        #expect(stored.map(\.status) == statuses)
    }
}
