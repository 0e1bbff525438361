import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import Testing

/// Every declared field of an item (``ItemField``, walked with its `allCases`) through the web
/// front on both engines: `POST /api/items` and `PATCH` take it, every answer (item, history
/// event) and every request body is valid against the OpenAPI document's schemas, which name
/// it, and the item page's form has its control and adds an item with it. A field the API, the
/// document or the form forgets fails here.
@Suite("Item fields through the web front") struct ItemFieldPathTests {
    /// The values a field takes in the walk: the first when added, the second after a patch.
    enum Sample {
        /// The value as JSON text.
        static func json(_ field: ItemField, first: Bool) -> String {
            switch field.kind {
            case .name: first ? #""Lamp""# : #""Desk lamp""#
            case .color: first ? #""blue""# : #""red""#
            case .status: first ? #"{"case":"inStock","quantity":3}"# : #"{"case":"outOfStock","isOnBackOrder":true}"#
            case .optionalText(let optional): first ? #""Shelf B3""# : "\"\(String(repeating: "x", count: optional.maximumLength))\""
            }
        }

        /// The form's pairs giving the field its first value.
        static func form(_ field: ItemField) -> [(String, String)] {
            switch field.kind {
            case .name: [(field.key, "Lamp")]
            case .color: [(field.key, "blue")]
            case .status: [(field.key, "in-stock"), ("quantity", "3")]
            case .optionalText: [(field.key, "Shelf+B3")]
            }
        }

        static func value(_ field: ItemField, first: Bool) -> Any {
            (try? JSONSerialization.jsonObject(with: Data(json(field, first: first).utf8), options: .fragmentsAllowed)) ?? NSNull()
        }
    }

    /// True when `a` and `b` are the same JSON value (as JSONSerialization writes them).
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        func text(_ value: Any?) -> String? {
            (try? JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: .sortedKeys)).map { String(decoding: $0, as: UTF8.self) }
        }
        return text(a) != nil && text(a) == text(b)
    }

    static var schemas: [String: Any] {
        (OpenAPICheck.document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
    }

    /// The rule `value` breaks of `schema` (the subset of JSON Schema the document uses), or nil.
    static func problem(_ value: Any, _ schema: [String: Any], at path: String = "$") -> String? {
        if let reference = schema["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let target = schemas[name] as? [String: Any] else { return "\(path): unknown \(reference)" }
            return problem(value, target, at: path)
        }
        if let all = schema["allOf"] as? [[String: Any]], let broken = all.lazy.compactMap({ problem(value, $0, at: path) }).first { return broken }
        if let one = schema["oneOf"] as? [[String: Any]], one.filter({ problem(value, $0, at: path) == nil }).count != 1 {
            return "\(path): \(value) is not exactly one of \(one)"
        }
        if let constant = schema["const"], !same(value, constant) { return "\(path): not \(constant)" }
        if let choices = schema["enum"] as? [Any], !choices.contains(where: { same($0, value) }) { return "\(path): \(value) not in \(choices)" }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as? String ?? ""]
            let actual: String = switch value {
            case is NSNull: "null"
            case let number as NSNumber where String(cString: number.objCType) == "c": "boolean"
            case let number as NSNumber: number.doubleValue == number.doubleValue.rounded() ? "integer" : "number"
            case is String: "string"
            case is [Any]: "array"
            case is [String: Any]: "object"
            default: "unknown"
            }
            guard types.contains(actual) || (actual == "integer" && types.contains("number")) else { return "\(path): \(actual), not \(types)" }
        }
        if let text = value as? String {
            let length = text.unicodeScalars.count
            if let most = schema["maxLength"] as? Int, length > most { return "\(path): longer than \(most)" }
            if let least = schema["minLength"] as? Int, length < least { return "\(path): shorter than \(least)" }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for required in schema["required"] as? [String] ?? [] where object[required] == nil { return "\(path): no \(required)" }
            for (key, member) in object {
                if let property = properties[key] {
                    if let broken = problem(member, property, at: "\(path).\(key)") { return broken }
                } else if (schema["additionalProperties"] as? Bool) == false {
                    return "\(path): \(key) is not in the schema"
                }
            }
        }
        return nil
    }

    /// `value` checked against the schema named `name`, which must list every field.
    func expectValid(_ value: Any, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let schema = ItemFieldPathTests.schemas[name] as? [String: Any] ?? [:]
        #expect(ItemFieldPathTests.problem(value, schema) == nil, "\(name): \(ItemFieldPathTests.problem(value, schema) ?? "")", sourceLocation: sourceLocation)
    }

    func parsed(_ text: String) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) ?? NSNull()
    }

    @Test("every field through the API, the OpenAPI document and the item form", arguments: Engine.allCases)
    func everyField(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let fields = ItemField.allCases
        // The document names every field in each item schema, and requires each in an answered item.
        let schemas = ItemFieldPathTests.schemas
        for name in ["Item", "NewItem", "ItemPatch", "Event"] {
            let properties = (schemas[name] as? [String: Any])?["properties"] as? [String: Any] ?? [:]
            for field in fields { #expect(properties[field.key] != nil, "\(name) has no \(field.key)") }
        }
        let required = (schemas["Item"] as? [String: Any])?["required"] as? [String] ?? []
        #expect(fields.allSatisfy { required.contains($0.key) })

        try await fixture.test { client in
            let body = "{" + fields.map { "\"\($0.key)\":\(Sample.json($0, first: true))" }.joined(separator: ",") + "}"
            expectValid(parsed(body), "NewItem")
            let created = try await client.send(.post, "/api/items", json: body)
            #expect(created.status == .created, "\(created.text)")
            expectValid(created.object, "Item")
            let id = try #require(created.object["id"] as? String)
            for field in fields {
                #expect(ItemFieldPathTests.same(created.object[field.key], Sample.value(field, first: true)), "\(field): \(created.text)")
            }
            // One patch per field, each answered with the item and recorded as that field's pair.
            for (offset, field) in fields.enumerated() {
                let patch = "{\"\(field.key)\":\(Sample.json(field, first: false))}"
                expectValid(parsed(patch), "ItemPatch")
                let patched = try await client.send(.patch, "/api/items/\(id)", json: patch, type: "application/merge-patch+json",
                                                    headers: [.ifMatch: "\"\(offset + 1)\""])
                #expect(patched.status == .ok, "\(field): \(patched.text)")
                expectValid(patched.object, "Item")
                #expect(ItemFieldPathTests.same(patched.object[field.key], Sample.value(field, first: false)), "\(field): \(patched.text)")
            }
            let history = try await client.send(.get, "/api/items/\(id)/history")
            let events = parsed(history.text) as? [[String: Any]] ?? []
            #expect(events.count == 1 + fields.count, "\(history.text)")
            for event in events { expectValid(event, "Event") }
            for (offset, field) in fields.enumerated() where offset + 1 < events.count {
                let pair = events[offset + 1][field.key] as? [String: Any]
                #expect(ItemFieldPathTests.same(pair?["from"], Sample.value(field, first: true))
                        && ItemFieldPathTests.same(pair?["to"], Sample.value(field, first: false)), "\(field): \(events[offset + 1])")
            }

            // The page's form has a control for each field, and an item added through it has them.
            let page = try await client.send(.get, "/items/new")
            for field in fields { #expect(page.text.contains("name=\"\(field.key)\""), "the form has no \(field.key)") }
            let form = fields.flatMap(Sample.form).map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let added = try await client.send(.post, "/items", json: form, type: "application/x-www-form-urlencoded")
            #expect(added.status == .seeOther, "\(added.text)")
            let addedID = String(added.headers[.location]?.split(separator: "/").last ?? "")
            let shown = try await client.send(.get, "/api/items/\(addedID)")
            expectValid(shown.object, "Item")
            for field in fields {
                #expect(ItemFieldPathTests.same(shown.object[field.key], Sample.value(field, first: true)), "\(field): \(shown.text)")
            }
            let itemPage = try await client.send(.get, "/items/\(addedID)")
            for field in fields { #expect(itemPage.text.contains("name=\"\(field.key)\""), "the item page's form has no \(field.key)") }
        }
    }
}
