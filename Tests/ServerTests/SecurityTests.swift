import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import StockroomTestSupport
import Testing

/// Cross-site writes, the token, read-only mode and a busy database, in process; on both
/// engines (the contract-suite way) but the busy file, which only SQLite has.
@Suite("Server security") struct SecurityTests {
    @Test("an unsafe method from another site is refused with 403; a safe one is answered", arguments: Engine.allCases)
    func crossSite(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let body = #"{"name":"Sneaky","status":{"case":"inStock","quantity":1}}"#
            let crossSite = try await client.send(.post, "/api/items", json: body, headers: [.secFetchSite: "cross-site"])
            #expect(crossSite.status == .forbidden)
            let origin = try await client.send(.post, "/api/items", json: body, headers: [.origin: "http://evil.example"])
            #expect(origin.status == .forbidden)
            #expect((origin.object["detail"] as? String)?.contains("evil.example") == true)
            let form = try await client.send(.post, "/items", json: "name=Sneaky&status=in-stock&quantity=1",
                                             type: "application/x-www-form-urlencoded", headers: [.origin: "null"])
            #expect(form.status == .forbidden)
            #expect(try await client.send(.get, "/api/items", headers: [.secFetchSite: "cross-site"]).status == .ok)
            let sameOrigin = try await client.send(.post, "/api/items", json: body, headers: [.origin: "http://localhost", .secFetchSite: "same-origin"])
            #expect(sameOrigin.status == .created)
        }
        #expect(try fixture.store().items.list().map(\.name) == ["Sneaky"])
    }

    @Test("with a token: 401 without it or with a wrong one; Bearer works; ?token= becomes a cookie and a redirect", arguments: Engine.allCases)
    func token(engine: Engine) async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let fixture = try await ServerFixture(engine, configuration: ServerConfiguration(port: 80, token: token))
        try await fixture.test { client in
            let missing = try await client.send(.get, "/api/items")
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            #expect(try await client.send(.get, "/api/items", headers: [.authorization: "Bearer nope"]).status == .unauthorized)
            #expect(try await client.send(.get, "/api/items", headers: [.authorization: "Bearer \(token)x"]).status == .unauthorized)
            #expect(try await client.send(.get, "/api/items", headers: [.authorization: "Bearer \(token)"]).status == .ok)
            let exchanged = try await client.send(.get, "/?search=a&token=\(token)")
            #expect(exchanged.status == .seeOther)
            #expect(exchanged.headers[.location] == "/?search=a")
            let cookie = try #require(exchanged.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.hasPrefix("stockroom_token=\(token)"))
            #expect(try await client.send(.get, "/", headers: [.cookie: "other=1; stockroom_token=\(token)"]).status == .ok)
            #expect(try await client.send(.get, "/?token=wrong").status == .unauthorized)
        }
    }

    @Test("the checks in the issue's order: a foreign Host 403, then a cross-site write 403, then a missing token 401", arguments: Engine.allCases)
    func order(engine: Engine) async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let body = #"{"name":"Sneaky","status":{"case":"inStock","quantity":1}}"#
        // The router test client sends `Host: localhost` without a port: a server on port 81
        // does not accept it, whatever else the request lacks.
        let elsewhere = try await ServerFixture(engine, configuration: ServerConfiguration(port: 81, token: token))
        try await elsewhere.test { client in
            let foreign = try await client.send(.post, "/api/items", json: body, headers: [.secFetchSite: "cross-site"])
            #expect(foreign.status == .forbidden)
            #expect((foreign.object["detail"] as? String)?.contains("Host") == true, "\(foreign.text)")
        }
        let fixture = try await ServerFixture(engine, configuration: ServerConfiguration(port: 80, token: token))
        try await fixture.test { client in
            // No token and cross-site: refused as cross-site (403), not as unauthenticated.
            let crossSite = try await client.send(.post, "/api/items", json: body, headers: [.secFetchSite: "cross-site"])
            #expect(crossSite.status == .forbidden)
            #expect((crossSite.object["detail"] as? String)?.contains("Sec-Fetch-Site: cross-site") == true, "\(crossSite.text)")
            #expect(crossSite.headers[.wwwAuthenticate] == nil)
            let origin = try await client.send(.post, "/items", json: "name=Sneaky&status=in-stock&quantity=1",
                                               type: "application/x-www-form-urlencoded", headers: [.origin: "http://evil.example"])
            #expect(origin.status == .forbidden)
            #expect((origin.object["detail"] as? String)?.contains("evil.example") == true, "\(origin.text)")
            // The same write from this site, still without the token: 401.
            let sameSite = try await client.send(.post, "/api/items", json: body, headers: [.secFetchSite: "same-origin"])
            #expect(sameSite.status == .unauthorized)
            #expect(sameSite.headers[.wwwAuthenticate] == "Bearer")
            // A cross-site write with the right token is still refused: the token does not make it same-site.
            let withToken = try await client.send(.post, "/api/items", json: body,
                                                  headers: [.secFetchSite: "cross-site", .authorization: "Bearer \(token)"])
            #expect(withToken.status == .forbidden)
        }
        #expect(try fixture.store().items.count() == 0)
        #expect(try elsewhere.store().items.count() == 0)
    }

    @Test("constant-time comparison gives the right answer for every length")
    func comparison() {
        #expect(RequestChecks.constantTimeEqual("abc", "abc"))
        #expect(!RequestChecks.constantTimeEqual("abd", "abc"))
        #expect(!RequestChecks.constantTimeEqual("ab", "abc"))
        #expect(!RequestChecks.constantTimeEqual("abcd", "abc"))
        #expect(!RequestChecks.constantTimeEqual("", "abc"))
    }

    @Test("read-only: every change is 405, reads work, the database is unchanged (a file byte-identical)", arguments: Engine.allCases)
    func readOnly(engine: Engine) async throws {
        let directory = TemporaryDirectory("stockroom-server")
        let scratch = engine == .postgres ? try PostgresScratchDatabase() : nil
        let location: DatabaseLocation = scratch.map { .postgres($0.uri) } ?? .file(directory.path("inventory.sqlite"))
        /// What must not change: the file's bytes, or a server database's items and history.
        func state() throws -> Data {
            switch location {
            case .file(let path): return try Data(contentsOf: URL(fileURLWithPath: path))
            case .postgres:
                let store = try InventoryStore(location: location)
                return Data("\(try store.items.list()) \(try store.items.events(after: nil, limit: 1000).count)".utf8)
            }
        }
        do {
            let store = try InventoryStore(location: location)
            try store.items.insert(Item(name: "Kept"))
        }
        let before = try state()
        let pool = try await StorePool.open(location, busyTimeout: .seconds(1), readOnly: true, connections: 1)
        let server = StockroomServer(configuration: ServerConfiguration(port: 80, readOnly: true), pool: pool)
        try await server.application().test(.router) { client in
            let list = try await client.send(.get, "/api/items")
            #expect((list.object["items"] as? [Any])?.count == 1)
            let refused = try await client.send(.post, "/api/items", json: #"{"name":"New","status":{"case":"inStock","quantity":1}}"#)
            #expect(refused.status == .methodNotAllowed)
            #expect(refused.headers[.allow] == "GET, HEAD")
            #expect(try await client.send(.post, "/api/import", json: "", type: "application/jsonl").status == .methodNotAllowed)
            #expect(try await client.send(.delete, "/api/items/abcd", headers: [.ifMatch: "\"1\""]).status == .methodNotAllowed)
        }
        pool.close()
        #expect(try state() == before)
        withExtendedLifetime(scratch) {}
    }

    @Test("a write that waits past the busy timeout is 503 with Retry-After; nothing is written")
    func busy() async throws {
        let fixture = try await ServerFixture(busyTimeoutMilliseconds: 200)
        // Another connection holds the write lock until the request has been answered.
        let holder = LockHolder(location: fixture.location)
        try holder.hold()
        try await fixture.test { client in
            let response = try await client.send(.post, "/api/items", json: #"{"name":"Late","status":{"case":"inStock","quantity":1}}"#)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
            #expect((response.object["detail"] as? String)?.contains("--busy-timeout") == true)
        }
        holder.release()
        #expect(try fixture.store().items.count() == 0)
    }
}

/// Holds a write transaction open on a thread of its own until released, as another process
/// writing would.
final class LockHolder: Sendable {
    let location: DatabaseLocation
    private let started = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(location: DatabaseLocation) { self.location = location }

    func hold() throws {
        let location = self.location, started = self.started, released = self.released, done = self.done
        Thread {
            defer { done.signal() }
            guard let store = try? InventoryStore(location: location) else { started.signal(); return }
            try? store.write {
                try store.items.insert(Item(name: "Holding the lock"))
                started.signal()
                released.wait()
                throw CancellationError() // roll back: the holder writes nothing
            }
        }.start()
        started.wait()
    }

    func release() {
        released.signal()
        done.wait()
    }
}
