import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import StockroomTestSupport
import Testing

/// `/api/items` on both engines: create, read with ETags, conditional update and delete,
/// history, and the list's filters and keyset pages.
@Suite("Items API") struct ItemsAPITests {
    @Test("the location through the API: created, shown, patched, removed, filtered, in history, as the OpenAPI document describes", arguments: Engine.allCases)
    func location(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let schemas = (OpenAPICheck.document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
        var properties: [String: Set<String>] = [:]
        for name in ["Item", "NewItem", "ItemPatch", "Event"] {
            properties[name] = Set(((schemas[name] as? [String: Any])?["properties"] as? [String: Any] ?? [:]).keys)
        }
        #expect(properties.values.allSatisfy { $0.contains("location") }, "\(properties)")
        let itemProperties = properties["Item"] ?? []
        let required = Set((schemas["Item"] as? [String: Any])?["required"] as? [String] ?? [])
        try await fixture.test { client in
            let created = try await client.send(.post, "/api/items", json: #"{"name":"Lamp","location":"  Shelf B3 ","status":{"case":"inStock","quantity":1}}"#)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.object["id"] as? String)
            let shown = try await client.send(.get, "/api/items/\(id)").object
            #expect(shown["location"] as? String == "Shelf B3")
            #expect(required.isSubset(of: Set(shown.keys)) && Set(shown.keys).isSubset(of: itemProperties), "\(shown.keys)")
            _ = try await client.send(.post, "/api/items", json: #"{"name":"Cup","status":{"case":"inStock","quantity":1}}"#)
            let filtered = try await client.send(.get, "/api/items?location=shelf%20b3").object
            #expect((filtered["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Lamp"])
            #expect(try await client.send(.get, "/api/items?location=a%09b").status == .badRequest)
            let moved = try await client.send(.patch, "/api/items/\(id)", json: #"{"location":"Attic"}"#,
                                              type: "application/merge-patch+json", headers: [.ifMatch: "\"1\""])
            #expect(moved.object["location"] as? String == "Attic", "\(moved.text)")
            let removed = try await client.send(.patch, "/api/items/\(id)", json: #"{"location":null}"#,
                                                type: "application/merge-patch+json", headers: [.ifMatch: "\"2\""])
            #expect(removed.object["location"] is NSNull, "\(removed.text)")
            let tooLong = String(repeating: "x", count: 201)
            let refused = try await client.send(.patch, "/api/items/\(id)", json: #"{"location":"\#(tooLong)"}"#,
                                                type: "application/merge-patch+json", headers: [.ifMatch: "\"3\""])
            #expect(refused.status == .badRequest, "\(refused.text)")
            let history = try await client.send(.get, "/api/items/\(id)/history")
            #expect(history.text.contains(#""location":{"from":"Shelf B3","to":"Attic"}"#), "\(history.text)")
            #expect(history.text.contains(#""location":{"from":"Attic","to":null}"#), "\(history.text)")
        }
    }

    @Test("create gives 201, Location and ETag; get gives the same item, 304 for its ETag", arguments: Engine.allCases)
    func createAndGet(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let created = try await client.send(.post, "/api/items", json: #"{"name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100}}"#)
            #expect(created.status == .created)
            #expect(created.headers[.eTag] == "\"1\"")
            let id = try #require(created.object["id"] as? String)
            #expect(created.headers[.location] == "/api/items/\(id)")
            let shown = try await client.send(.get, "/api/items/\(id)")
            #expect(shown.status == .ok)
            #expect(shown.text == #"{"id":"\#(id)","name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100}"# + ItemShape.jsonNulls + #","version":1}"# + "\n")
            #expect(shown.headers[.eTag] == "\"1\"")
            let unchanged = try await client.send(.get, "/api/items/\(id)", headers: [.ifNoneMatch: "\"1\""])
            #expect(unchanged.status == .notModified)
            let changed = try await client.send(.get, "/api/items/\(id)", headers: [.ifNoneMatch: "\"7\""])
            #expect(changed.status == .ok)
            // A prefix resolves as on the command line.
            #expect(try await client.send(.get, "/api/items/\(id.prefix(8))").status == .ok)
        }
        // The item is in the database, as any other front reads it.
        let items = try fixture.store().items.list()
        #expect(items.map(\.name) == ["Keyboard"])
    }

    @Test("PATCH and DELETE need If-Match: 428 without, 412 with a stale version, which the body names", arguments: Engine.allCases)
    func conditionalWrites(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let id = try await client.add("Charger", color: "yellow", quantity: 20)
            let missing = try await client.send(.patch, "/api/items/\(id)", json: #"{"status":{"case":"inStock","quantity":19}}"#, type: "application/merge-patch+json")
            #expect(missing.status == .preconditionRequired)
            #expect(missing.headers[.contentType] == "application/problem+json")
            let patched = try await client.send(.patch, "/api/items/\(id)", json: #"{"status":{"case":"inStock","quantity":19},"color":null}"#,
                                                type: "application/merge-patch+json", headers: [.ifMatch: "\"1\""])
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched.headers[.eTag] == "\"2\"")
            #expect(patched.text.contains(#""color":null,"status":{"case":"inStock","quantity":19}"# + ItemShape.jsonNulls + #","version":2"#))
            // The same If-Match again is stale now: the CLI's --if-version wording, and the version.
            let stale = try await client.send(.patch, "/api/items/\(id)", json: #"{"name":"Lost update"}"#, headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.object["currentVersion"] as? Int == 2)
            #expect(stale.object["detail"] as? String == StoreError.versionConflict(id: id, expected: 1, current: 2).description)
            #expect(try await client.send(.delete, "/api/items/\(id)").status == .preconditionRequired)
            #expect(try await client.send(.delete, "/api/items/\(id)", headers: [.ifMatch: "\"1\""]).status == .preconditionFailed)
            #expect(try await client.send(.delete, "/api/items/\(id)", headers: [.ifMatch: "\"2\""]).status == .noContent)
            #expect(try await client.send(.get, "/api/items/\(id)").status == .notFound)
            // History outlives the item.
            let history = try await client.send(.get, "/api/items/\(id)/history")
            #expect(history.status == .ok)
            let events = try JSONSerialization.jsonObject(with: Data(history.text.utf8)) as? [[String: Any]] ?? []
            #expect(events.map { $0["kind"] as? String } == ["added", "changed", "deleted"])
        }
        let names = try fixture.store().items.list().map(\.name)
        #expect(names.isEmpty)
    }

    @Test("the list filters and pages with a keyset cursor, in the order of items list", arguments: Engine.allCases)
    func listPages(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let colors: [Color?] = [nil, .red, .blue]
        let added = (0..<25).map { index in
            Item(name: ["Cable", "cable", "Adapter", "Zebra clip", "Hub"][index % 5] + (index < 5 ? "" : " \(index % 3)"),
                 color: colors[index % 3], status: index % 4 == 0 ? .outOfStock(isOnBackOrder: index % 8 == 0) : .inStock(quantity: index + 1))
        }
        try store.items.insert(contentsOf: added)
        let queries = [ItemQuery(), ItemQuery(status: .inStock), ItemQuery(status: .onBackOrder), ItemQuery(color: .red),
                       ItemQuery(nameContains: "CAB"), ItemQuery(status: .outOfStock, color: nil, nameContains: "a")]
        // What `items list` prints for each query, read before the server runs.
        let expectations = try queries.map { query in (query, try store.items.list(matching: query).map { $0.id.lowercasedString }) }
        try await fixture.test { client in
            for (query, expected) in expectations {
                var parameters: [String] = ["limit=4"]
                if let status = query.status { parameters.append("status=\(status.text)") }
                if let color = query.color { parameters.append("color=\(color.rawValue)") }
                if let search = query.nameContains { parameters.append("search=\(search)") }
                var uri: String? = "/api/items?" + parameters.joined(separator: "&")
                var seen: [String] = []
                while let next = uri {
                    let page = try await client.send(.get, next)
                    #expect(page.status == .ok)
                    let items = page.object["items"] as? [[String: Any]] ?? []
                    #expect(items.count <= 4)
                    #expect(items.allSatisfy { ($0["version"] as? Int) == 1 })
                    seen += items.compactMap { $0["id"] as? String }
                    let link = page.headers[.link]
                    if let cursor = page.object["next"] as? String {
                        #expect(link?.contains("after=\(cursor)") == true)
                        uri = link.map { String($0.dropFirst().prefix { $0 != ">" }) }
                    } else {
                        #expect(link == nil)
                        uri = nil
                    }
                }
                #expect(seen == expected, "\(query)")
            }
        }
    }

    @Test("bad parameters and bodies are problems with the CLI's wording, never a crash", arguments: Engine.allCases)
    func badInput(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            for uri in ["/api/items?status=lost", "/api/items?color=purple", "/api/items?limit=0", "/api/items?limit=1001",
                        "/api/items?limit=x", "/api/items?after=bm9wZQ", "/api/items/zz", "/api/items/abc"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.object["status"] as? Int == 400)
            }
            let notFound = try await client.send(.get, "/api/items/01234567-89ab-7def-8123-456789abcdef")
            #expect(notFound.status == .notFound)
            #expect(notFound.object["detail"] as? String == "no item with id '01234567-89ab-7def-8123-456789abcdef'")
            #expect(try await client.send(.post, "/api/items", json: "{}", type: "text/plain").status == .unsupportedMediaType)
            #expect(try await client.send(.post, "/api/items", json: "not json").status == .badRequest)
            let blank = try await client.send(.post, "/api/items", json: #"{"name":"   ","status":{"case":"inStock","quantity":1}}"#)
            #expect(blank.status == .unprocessableContent)
            #expect(blank.object["detail"] as? String == "missing or blank name")
            let quantity = try await client.send(.post, "/api/items", json: #"{"name":"A","status":{"case":"inStock","quantity":0}}"#)
            #expect(quantity.status == .unprocessableContent)
            #expect(quantity.object["detail"] as? String == InventoryError.invalidQuantity(0).description)
            let big = String(repeating: " ", count: ServerConfiguration.defaultJSONBodyLimit + 1)
            #expect(try await client.send(.post, "/api/items", json: big).status == .contentTooLarge)
            let id = try await client.add("Hub")
            #expect(try await client.send(.post, "/api/items", json: #"{"id":"\#(id)","name":"Again","status":{"case":"inStock","quantity":1}}"#).status == .conflict)
            for patch in [#"{"size":3}"#, #"{"name":5}"#, #"{"color":"purple"}"#, #"{"status":{"case":"inStock"}}"#, #"{"status":{"case":"outOfStock","isOnBackOrder":1}}"#, "[]"] {
                let response = try await client.send(.patch, "/api/items/\(id)", json: patch, headers: [.ifMatch: "\"1\""])
                #expect(response.status == .badRequest, "\(patch): \(response.text)")
            }
            let control = try await client.send(.patch, "/api/items/\(id)", json: #"{"name":"a\u001bb"}"#, headers: [.ifMatch: "\"1\""])
            #expect(control.status == .badRequest)
            #expect(control.object["detail"] as? String == InventoryError.controlCharacterInName(0x1B, position: 2).description)
            let blankPatch = try await client.send(.patch, "/api/items/\(id)", json: #"{"name":""}"#, headers: [.ifMatch: "\"1\""])
            #expect(blankPatch.status == .unprocessableContent)
            #expect(try await client.send(.patch, "/api/items/\(id)", json: "{}", headers: [.ifMatch: "one"]).status == .badRequest)
        }
    }
}
