import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import Testing

/// `/api/export` and `/api/import`: the bytes of `stockroom export`, all-or-nothing imports.
@Suite("Transfer API") struct TransferAPITests {
    @Test("export streams the bytes ItemExport writes for the same store, in every format", arguments: Engine.allCases)
    func export(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        try store.items.insert(contentsOf: (0..<300).map { Item(name: "Item \($0) \"quoted\", =1", color: $0 % 2 == 0 ? .red : nil, status: .inStock(quantity: $0 + 1)) })
        for format in TransferFormat.allCases {
            let path = fixture.directory.path("export.\(format.rawValue)")
            _ = try ItemExport.write(format, from: store, toFile: path)
            let expected = try String(contentsOfFile: path, encoding: .utf8)
            try await fixture.test { client in
                let response = try await client.send(.get, "/api/export?format=\(format.rawValue)")
                #expect(response.status == .ok)
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"stockroom.\(format.rawValue)\"")
                #expect(response.text == expected)
            }
        }
        try await fixture.test { client in
            let response = try await client.send(.get, "/api/export?format=xml")
            #expect(response.status == .badRequest)
        }
    }

    @Test("import is all or nothing: a bad row gives 422 with its line, and nothing is imported", arguments: Engine.allCases)
    func importRows(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        try await fixture.test { client in
            let bad = """
                {"name":"Good","status":{"case":"inStock","quantity":1}}
                {"name":"","status":{"case":"inStock","quantity":1}}
                {"name":"Also good","status":{"case":"outOfStock","isOnBackOrder":false}}
                {"name":"Bad quantity","status":{"case":"inStock","quantity":0}}

                """
            let refused = try await client.send(.post, "/api/import", json: bad, type: "application/jsonl")
            #expect(refused.status == .unprocessableContent)
            let errors = refused.object["errors"] as? [[String: Any]] ?? []
            #expect(errors.map { $0["line"] as? Int } == [2, 4])
            #expect(errors.first?["reason"] as? String == "missing or blank name")
            #expect(refused.object["detail"] as? String == "2 bad rows; nothing was imported")
            let csv = "name,color,status,quantity,is_on_back_order\r\nHub,red,in_stock,3,\r\nCable,,out_of_stock,,1\r\n"
            let imported = try await client.send(.post, "/api/import?format=csv", json: csv, type: "text/csv")
            #expect(imported.status == .ok, "\(imported.text)")
            #expect(imported.object["imported"] as? Int == 2)
            #expect(try await client.send(.post, "/api/import", json: "{}", type: "application/json").status == .unsupportedMediaType)
            #expect(try await client.send(.post, "/api/import?on-conflict=maybe", json: "", type: "application/jsonl").status == .badRequest)
        }
        #expect(try fixture.store().items.list().map(\.name) == ["Cable", "Hub"])
    }

    @Test("an import larger than the limit is refused with 413 and nothing imported")
    func importLimit() async throws {
        let fixture = try await ServerFixture(configuration: ServerConfiguration(port: 80, importBodyLimit: 1000))
        try await fixture.test { client in
            let rows = String(repeating: #"{"name":"Row","status":{"case":"inStock","quantity":1}}"# + "\n", count: 40)
            let response = try await client.send(.post, "/api/import", json: rows, type: "application/jsonl")
            #expect(response.status == .contentTooLarge)
        }
        #expect(try fixture.store().items.count() == 0)
    }
}
