import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import Testing

/// HEAD, the headers every answer carries, and the statuses of what a client sent wrong.
@Suite("HTTP conventions") struct HTTPConventionsTests {
    /// One URI of every GET route: the pages, the API and the assets.
    static func getRoutes(item: String, draft: String) -> [String] {
        ["/", "/?search=hub", "/items/new", "/items/\(item)", "/items/\(item)/delete", "/drafts", "/drafts/\(draft)/wizard",
         "/import", "/export", "/assets/style.css", "/assets/live.js",
         "/api/items", "/api/items/\(item)", "/api/items/\(item)/history", "/api/drafts", "/api/drafts/\(draft)",
         "/api/drafts/\(draft)/wizard", "/api/export", "/api/export?format=csv", "/api/export?format=json", "/api/openapi.json",
         // Errors too: a route that is not there, a bad parameter, an unknown item.
         "/nowhere", "/api/items?limit=0", "/api/items/01234567-89ab-7def-8123-456789abcdef"]
    }

    /// The headers as a dictionary of lowercased name to values, for comparing two answers.
    static func fields(_ headers: HTTPFields) -> [String: [String]] {
        Dictionary(grouping: headers, by: { $0.name.canonicalName }).mapValues { $0.map(\.value) }
    }

    @Test("HEAD on every GET route: the same status and headers, no body", arguments: Engine.allCases)
    func head(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let item = try await client.add("Hub", color: "red")
            let draft = try await client.send(.post, "/api/drafts", json: #"{"name":"Cable"}"#).object["id"] as? String ?? ""
            for uri in HTTPConventionsTests.getRoutes(item: item, draft: draft) {
                // The document does not describe itself; every other /api answer is checked against it.
                let documented = uri != "/api/openapi.json"
                let get = documented ? try await client.send(.get, uri) : try await client.execute(uri: uri, method: .get)
                let head = documented ? try await client.send(.head, uri) : try await client.execute(uri: uri, method: .head)
                #expect(head.status == get.status, "\(uri)")
                #expect(HTTPConventionsTests.fields(head.headers) == HTTPConventionsTests.fields(get.headers), "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(get.status == .notFound || get.status == .badRequest || get.body.readableBytes > 0, "\(uri)")
            }
            let conditional = try await client.send(.head, "/api/items/\(item)", headers: [.ifNoneMatch: "\"1\""])
            #expect(conditional.status == .notModified)
        }
    }

    @Test("a HEAD of the export starts no export: nothing is queued for the store")
    func headOfExportReadsNothing() async throws {
        let fixture = try await ServerFixture()
        try fixture.store().items.insert(contentsOf: (0..<100).map { Item(name: "Item \($0)") })
        // Every thread that exports held, so that any export asked for stays in the queue,
        // where the test sees it.
        let pool = fixture.server.pool
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<pool.exportingThreads { pool.start { _ in release.wait() } }
        defer { for _ in 0..<pool.exportingThreads { release.signal() } }
        try await fixture.test { client in
            let head = try await client.send(.head, "/api/export?format=csv")
            #expect(head.status == .ok)
            #expect(head.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(pool.queuedJobs == 0)
        }
    }

    @Test("every answer says nosniff and forbids framing, whatever answered it")
    func securityHeaders() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        for configuration in [ServerConfiguration(port: 80), ServerConfiguration(port: 80, token: token)] {
            let fixture = try await ServerFixture(configuration: configuration)
            try await fixture.test { client in
                let authorized: HTTPFields = configuration.token == nil ? [:] : [.authorization: "Bearer \(token)"]
                var answers: [(String, TestResponse)] = []
                for uri in ["/", "/items/new", "/api/items", "/assets/style.css", "/nowhere", "/api/items?limit=0"] {
                    answers.append((uri, try await client.send(.get, uri, headers: authorized)))
                }
                var crossSite = authorized
                crossSite[.secFetchSite] = "cross-site"
                answers.append(("POST cross-site", try await client.send(.post, "/api/items", json: "{}", headers: crossSite)))
                answers.append(("POST not JSON", try await client.send(.post, "/api/items", json: "{", headers: authorized)))
                answers.append(("no token", try await client.send(.get, "/api/items")))
                for (what, response) in answers {
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(what)")
                    #expect(response.headers[.xFrameOptions] == "DENY", "\(what)")
                    let policy = response.headers[.contentSecurityPolicy] ?? ""
                    #expect(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains("frame-ancestors 'none'"), "\(what): \(policy)")
                }
            }
        }
    }

    @Test("JSON that is not JSON is 400; JSON that says the wrong thing is 422", arguments: Engine.allCases)
    func malformedJSON(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let deep = String(repeating: "[", count: 100_000)
            for body in ["not json", "{", #"{"name":"A""#, #"{"name":"A",}"#, #"{"name":"A"} {}"#, #"{"name":'A'}"#, "",
                         #"{"name":"A","n":01}"#, #"{"name":"A","n":[1,]}"#, #"{"name":"A\x"}"#, #"{"name":"A","n":1.}"#, deep] {
                let response = try await client.send(.post, "/api/items", json: body)
                #expect(response.status == .badRequest, "\(body): \(response.text)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.object["detail"] as? String == "the body is not valid JSON", "\(body)")
            }
            for body in ["{}", #"{"name":5}"#, #"{"name":"A","size":3}"#, "[]", #" {"name":"A","status":{"case":"inStock","quantity":-1.5e3}} "#] {
                let response = try await client.send(.post, "/api/items", json: body)
                #expect(response.status == .unprocessableContent, "\(body): \(response.text)")
            }
        }
        #expect(try fixture.store().items.list().isEmpty)
    }

    @Test("POST /api/items without a status adds the item as `items add` does", arguments: Engine.allCases)
    func defaultStatus(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let response = try await client.send(.post, "/api/items", json: #"{"name":"Hub","color":"red"}"#)
            #expect(response.status == .created, "\(response.text)")
            let status = response.object["status"] as? [String: Any]
            #expect(status?["case"] as? String == "inStock")
            #expect(status?["quantity"] as? Int == 1)
        }
        let items = try fixture.store().items.list()
        #expect(items.map(\.status) == [Item.defaultStatus])
        #expect(Item.defaultStatus == .inStock(quantity: 1))
    }
}
