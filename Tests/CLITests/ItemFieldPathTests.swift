import Foundation
import Inventory
import StockroomTestSupport
import Testing

/// Every declared field of an item (``ItemField``, walked with its `allCases`) through every
/// path of the real binary, on a SQLite file and on a PostgreSQL server: the CLI's options
/// (add, update, removal), `items show` (the codec's round trip through the table), history
/// (the JSON pair and the `item_events` columns the declaration names), and CSV and JSON Lines
/// export and import back. A new field that one of these paths forgets fails here; a new kind
/// of field does not compile here until the test gives it sample values.
@Suite struct ItemFieldPathTests {
    typealias Target = PostgresCLITests.Target

    /// The values a field takes in the walk: the first when added, the second after an update.
    enum Sample {
        /// The options giving `field` its `first` (or second) value.
        static func arguments(_ field: ItemField, first: Bool) -> [String] {
            switch field.kind {
            case .name: ["--name", first ? "Lamp" : "Desk lamp"]
            case .color: ["--color", first ? "blue" : "red"]
            case .status: first ? ["--quantity", "3"] : ["--out-of-stock", "--back-order"]
            case .optionalText(let optional): [flag(optional), text(optional, first: first)]
            }
        }

        /// The value as JSON shows it.
        static func json(_ field: ItemField, first: Bool) -> Any {
            switch field.kind {
            case .name: first ? "Lamp" : "Desk lamp"
            case .color: first ? "blue" : "red"
            case .status: first ? ["case": "inStock", "quantity": 3] as [String: Any] : ["case": "outOfStock", "isOnBackOrder": true]
            case .optionalText(let optional): text(optional, first: first)
            }
        }

        /// A text the field's rule takes, as long as the rule allows on the second value.
        static func text(_ optional: OptionalTextField, first: Bool) -> String {
            first ? "Shelf B3" : String(repeating: "x", count: optional.maximumLength)
        }

        /// The option of an optional text, as ArgumentParser spells the property (`--location`).
        static func flag(_ optional: OptionalTextField) -> String {
            "--" + optional.field.column.replacingOccurrences(of: "_", with: "-")
        }
    }

    @discardableResult
    func run(_ target: Target, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try target.stockroom(arguments)
        #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// True when the two are the same JSON value (as JSONSerialization writes them); a value
    /// left out is not null.
    func same(_ value: Any?, _ expected: Any?) -> Bool {
        func text(_ value: Any) -> String? {
            (try? JSONSerialization.data(withJSONObject: [value], options: .sortedKeys)).map { String(decoding: $0, as: UTF8.self) }
        }
        guard let value, let expected else { return value == nil && expected == nil }
        return text(value) != nil && text(value) == text(expected)
    }

    /// One row of `sql`'s answer, by the sqlite3 shell or psql, as the fields' text.
    func byHand(_ target: Target, _ sql: String) throws -> String {
        let result = try target.schema.map { try $0.psql(sql) } ?? Processes.sqlite3(target.db, sql)
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [false, true])
    func everyFieldGoesThroughEveryPath(server: Bool) throws {
        let target = try Target(server: server)
        let fields = ItemField.allCases

        // The options: `items add` takes every field, `items update` changes each; `--help` names them.
        let addHelp = try run(target, ["items", "add", "--help"]), updateHelp = try run(target, ["items", "update", "--help"])
        for field in fields {
            #expect(addHelp.contains(Sample.arguments(field, first: true)[0]), "items add has no option for \(field)")
            #expect(updateHelp.contains(Sample.arguments(field, first: false)[0]), "items update has no option for \(field)")
        }
        let id = try run(target, ["items", "add"] + fields.flatMap { Sample.arguments($0, first: true) })
            .trimmingCharacters(in: .whitespacesAndNewlines)

        // Stored and read back through the codec.
        let shown = try object(run(target, ["items", "show", id, "--format", "json"]))
        for field in fields {
            #expect(same(shown[field.key], Sample.json(field, first: true)), "\(field): \(shown)")
        }

        // One update per field: one 'changed' event each, holding that field's pair and no other.
        for field in fields {
            try run(target, ["items", "update", id] + Sample.arguments(field, first: false))
        }
        let events = try #require(try JSONSerialization.jsonObject(with: Data(run(target, ["items", "history", id, "--format", "json"]).utf8)) as? [[String: Any]])
        #expect(events.count == 1 + fields.count)
        for (offset, field) in fields.enumerated() where offset + 1 < events.count {
            let event = events[offset + 1]
            for other in fields {
                let pair = event[other.key] as? [String: Any]
                if other == field {
                    #expect(same(pair?["from"], Sample.json(field, first: true)) && same(pair?["to"], Sample.json(field, first: false)),
                            "\(field): \(event)")
                } else {
                    #expect(event[other.key] is NSNull, "\(field)'s event holds \(other): \(event)")
                }
            }
            // The history columns the declaration names hold the pair (the status's under its prefixes).
            let version = offset + 2
            let changedFlag = field.changedFlagColumn.map { ", \($0)" } ?? ""
            let stored = try byHand(target, "SELECT \(field.fromColumn), \(field.toColumn)\(changedFlag) FROM item_events WHERE item_id = '\(id)' AND version = \(version);")
            #expect(!stored.isEmpty && (field.changedFlagColumn == nil || stored.hasSuffix("1")), "\(field): \(stored)")
        }

        // Removal, for each field that can be none: a pair to null.
        for field in fields {
            guard case .optionalText(let optional) = field.kind else { continue }
            try run(target, ["items", "update", id, "--no-" + Sample.flag(optional).dropFirst(2)])
            let last = try #require(try JSONSerialization.jsonObject(with: Data(run(target, ["items", "history", id, "--format", "json"]).utf8)) as? [[String: Any]]).last
            #expect((last?[field.key] as? [String: Any])?["to"] is NSNull, "\(field): \(String(describing: last))")
            try run(target, ["items", "update", id] + Sample.arguments(field, first: false))
        }

        // The limit declared with the field is its SQLite CHECK's too: the longest text is
        // stored (above), one scalar more written by hand is refused, on items and drafts.
        // (PostgreSQL's CHECK bounds the bytes, as a server in SQL_ASCII counts them.)
        if target.schema == nil {
            try run(target, ["draft", "add"])
            for field in fields {
                guard case .optionalText(let optional) = field.kind else { continue }
                let tooLong = String(repeating: "x", count: optional.maximumLength + 1)
                for table in ["items", "drafts"] {
                    let refused = try Processes.sqlite3(target.db, "UPDATE \(table) SET \(field.column) = '\(tooLong)';")
                    #expect(refused.status != 0 && refused.stderr.contains("CHECK constraint failed"), "\(table).\(field.column): \(refused)")
                }
            }
        }

        // Export and import back, in both formats, into a fresh target of the same engine.
        let header = try run(target, ["export", "--format", "csv"]).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        for field in fields {
            #expect(header.split(separator: ",").contains(Substring(field.column)), "the CSV header has no \(field.column): \(header)")
        }
        for format in ["csv", "jsonl"] {
            let exported = try run(target, ["export", "--format", format])
            let copy = try Target(server: server)
            let file = copy.directory.path("items.\(format)")
            try exported.write(toFile: file, atomically: true, encoding: .utf8)
            try run(copy, ["import", file])
            let imported = try object(run(copy, ["items", "show", id, "--format", "json"]))
            for field in fields {
                #expect(same(imported[field.key], Sample.json(field, first: false)), "\(format), \(field): \(imported)")
            }
            #expect(try run(copy, ["export", "--format", format]) == exported)
        }
    }
}
