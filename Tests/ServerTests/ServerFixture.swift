import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import StockroomTestSupport
import Testing

/// The engines the router tests run on: the contract-suite way.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// A real database (a SQLite file in a temporary folder, or a database of its own on the
/// throwaway PostgreSQL server) with a server's router over it, driven in process.
final class ServerFixture: Sendable {
    let directory: TemporaryDirectory
    let scratch: PostgresScratchDatabase?
    let location: DatabaseLocation
    let server: StockroomServer

    /// The router test client sends `Host: localhost` with no port, which a server on port 80
    /// accepts; the Host check itself is tested against the real process (ServeProcessTests).
    init(_ engine: Engine = .sqlite, configuration: ServerConfiguration = ServerConfiguration(port: 80),
         busyTimeoutMilliseconds: Int32 = 5_000) async throws {
        directory = TemporaryDirectory("stockroom-server")
        switch engine {
        case .sqlite:
            scratch = nil
            location = .file(directory.path("inventory.sqlite"))
        case .postgres:
            let scratch = try PostgresScratchDatabase()
            self.scratch = scratch
            location = .postgres(scratch.uri)
        }
        let pool = try await StorePool.open(location, busyTimeout: .milliseconds(busyTimeoutMilliseconds),
                                          readOnly: configuration.readOnly, connections: 2)
        server = StockroomServer(configuration: configuration, pool: pool)
    }

    deinit { server.pool.close() }

    /// Runs `body` with a client of the in-process router.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await server.application().test(.router, body)
    }

    /// A store of the test's own on the same database, as another process would have.
    func store() throws -> InventoryStore {
        try InventoryStore(location: location)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }
}

extension TestClientProtocol {
    /// A request with a JSON (or other) body.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, type: String = "application/json",
              headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if json != nil { headers[.contentType] = type }
        let response = try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        try OpenAPICheck.expectDocumented(method: method, uri: uri, response: response)
        return response
    }

    /// Adds an item through the API and returns its id.
    func add(_ name: String, color: String? = nil, quantity: Int? = 1) async throws -> String {
        let status = quantity.map { "{\"case\":\"inStock\",\"quantity\":\($0)}" } ?? "{\"case\":\"outOfStock\",\"isOnBackOrder\":false}"
        let color = color.map { "\"\($0)\"" } ?? "null"
        let response = try await send(.post, "/api/items", json: "{\"name\":\"\(name)\",\"color\":\(color),\"status\":\(status)}")
        #expect(response.status == .created, "\(response.text)")
        return response.object["id"] as? String ?? ""
    }
}

/// Every answer the tests see must be one the OpenAPI document lists for its path and method,
/// with the media type it names: the document is checked against the real responses.
enum OpenAPICheck {
    static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.text.utf8)) as? [String: Any]) ?? [:]
    }

    struct Undocumented: Error, CustomStringConvertible {
        let description: String
    }

    static func expectDocumented(method: HTTPRequest.Method, uri: String, response: TestResponse) throws {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        guard path.hasPrefix("/api/") else { return }
        let paths = document["paths"] as? [String: Any] ?? [:]
        guard let template = paths.keys.first(where: { matches(template: $0, path: path) }),
              let operations = paths[template] as? [String: Any] else {
            throw Undocumented(description: "\(path) is not in the OpenAPI document")
        }
        guard let operation = operations[method.rawValue.lowercased()] as? [String: Any] else {
            // Methods the router does not have answer 404/405 through the problem middleware.
            return
        }
        let responses = operation["responses"] as? [String: Any] ?? [:]
        let code = String(response.status.code)
        // 401/403/405 come from the security checks, on every path alike.
        if ["401", "403", "405"].contains(code) { return }
        guard let entry = responses[code] as? [String: Any] else {
            throw Undocumented(description: "\(method) \(template) answered \(code), which the document does not list")
        }
        let resolved = resolve(entry)
        let type = (response.headers[.contentType] ?? "").split(separator: ";").first.map(String.init) ?? ""
        if let content = resolved["content"] as? [String: Any] {
            guard content[type] != nil else {
                throw Undocumented(description: "\(method) \(template) \(code) answered \(type), the document lists \(content.keys.sorted())")
            }
        }
    }

    private static func resolve(_ entry: [String: Any]) -> [String: Any] {
        guard let reference = entry["$ref"] as? String else { return entry }
        let name = reference.split(separator: "/").last.map(String.init) ?? ""
        let responses = (document["components"] as? [String: Any])?["responses"] as? [String: Any]
        return responses?[name] as? [String: Any] ?? [:]
    }

    static func matches(template: String, path: String) -> Bool {
        let a = template.split(separator: "/"), b = path.split(separator: "/")
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}
