import Foundation
import StockroomTestSupport
import Testing

/// The schema refuses every invalid row even when written by hand in the `sqlite3` shell.
@Suite struct SchemaConstraintTests {
    static let id = "01937f4e-1111-7000-8000-00000000000a"
    static let time = "'2026-11-22T10:00:00.000Z'"

    /// Item rows as `(id, name, color, status, quantity, is_on_back_order)` values that must fail.
    static let invalidItems: [String] = [
        "'\(id)', 'X', NULL, 'in_stock', NULL, NULL",          // in stock without quantity
        "'\(id)', 'X', NULL, 'in_stock', 0, NULL",             // quantity below 1
        "'\(id)', 'X', NULL, 'in_stock', -5, NULL",
        "'\(id)', 'X', NULL, 'in_stock', 3, 0",                // in stock with a back-order flag
        "'\(id)', 'X', NULL, 'out_of_stock', 3, 0",            // out of stock with a quantity
        "'\(id)', 'X', NULL, 'out_of_stock', NULL, NULL",      // out of stock without flag
        "'\(id)', 'X', NULL, 'out_of_stock', NULL, 2",         // flag not 0 or 1
        "'\(id)', 'X', NULL, 'sold_out', NULL, 0",             // unknown tag
        "'\(id)', 'X', NULL, NULL, NULL, 0",                   // no tag
        "'\(id)', 'X', 'purple', 'in_stock', 1, NULL",         // unknown colour
        "'\(id)', 'X', 'Blue', 'in_stock', 1, NULL",           // colours are lowercase
        "'\(id)', '', NULL, 'in_stock', 1, NULL",              // empty name
        "'\(id)', '   ', NULL, 'in_stock', 1, NULL",           // blank name
        "'\(id)', char(9, 10), NULL, 'in_stock', 1, NULL",
        "'\(id)', 'X', NULL, 'in_stock', 'seven', NULL",       // STRICT: text is not an integer
        "'\(id)', 'X', NULL, 'in_stock', 2.5, NULL",           // nor is a real
        "'\(id.uppercased())', 'X', NULL, 'in_stock', 1, NULL", // ids are lowercase
        "'not-a-uuid', 'X', NULL, 'in_stock', 1, NULL",
    ]

    static let invalidDrafts: [String] = [
        // (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order)
        "'\(id)', 'adding', '01937f4e-2222-7000-8000-00000000000b', '01937f4e-3333-7000-8000-00000000000c', 'X', NULL, 'in_stock', 1, NULL",
        "'\(id)', 'duplicating', NULL, '01937f4e-3333-7000-8000-00000000000c', 'X', NULL, 'in_stock', 1, NULL",
        "'\(id)', 'copying', NULL, '01937f4e-3333-7000-8000-00000000000c', 'X', NULL, 'in_stock', 1, NULL",
        "'\(id)', 'adding', NULL, '01937f4e-3333-7000-8000-00000000000c', 'X', NULL, 'in_stock', 0, NULL",
        "'\(id)', 'adding', NULL, '01937f4e-3333-7000-8000-00000000000c', 'X', NULL, 'out_of_stock', NULL, NULL",
        "'\(id)', 'adding', NULL, '01937f4e-3333-7000-8000-00000000000c', 'X', 'mauve', 'in_stock', 1, NULL",
        "'\(id)', 'duplicating', 'nope', '01937f4e-3333-7000-8000-00000000000c', 'X', NULL, 'in_stock', 1, NULL",
    ]

    func migratedDatabase(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("schema.sqlite")
        let result = try Processes.stockroom(["migrate", "up", "--db", path])
        #expect(result.status == 0, "\(result)")
        return path
    }

    @Test(arguments: invalidItems)
    func theShellCannotWriteAnInvalidItem(_ values: String) throws {
        let directory = TemporaryDirectory()
        let path = try migratedDatabase(directory)
        let result = try Processes.sqlite3(path, """
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES (\(values), \(Self.time), \(Self.time));
            """, options: ["-bail"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("constraint failed") || result.stderr.contains("cannot store"), "\(result)")
        #expect(try Processes.sqlite3(path, "SELECT count(*) FROM items;").output == "0")
    }

    @Test(arguments: invalidDrafts)
    func theShellCannotWriteAnInvalidDraft(_ values: String) throws {
        let directory = TemporaryDirectory()
        let path = try migratedDatabase(directory)
        let result = try Processes.sqlite3(path, """
            INSERT INTO drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES (\(values), \(Self.time), \(Self.time));
            """, options: ["-bail"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("constraint failed"), "\(result)")
    }

    @Test func validRowsWrittenByHandAreAccepted() throws {
        let directory = TemporaryDirectory()
        let path = try migratedDatabase(directory)
        let result = try Processes.sqlite3(path, """
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at, location)
            VALUES ('\(Self.id)', 'Keyboard', 'blue', 'in_stock', 100, NULL, \(Self.time), \(Self.time), 'Shelf B3');
            INSERT INTO drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, created_at, updated_at, location)
            VALUES ('01937f4e-4444-7000-8000-00000000000d', 'adding', NULL, '01937f4e-5555-7000-8000-00000000000e', '', NULL, 'out_of_stock', NULL, 1, \(Self.time), \(Self.time), NULL);
            """, options: ["-bail"])
        #expect(result.status == 0, "\(result)")
        let list = try Processes.stockroom(["items", "list", "--db", path, "--format", "json"])
        #expect(list.output.contains(#""name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100},"location":"Shelf B3""#))
    }

    @Test func theSchemaExplainsItsTaggingInComments() throws {
        let directory = TemporaryDirectory()
        let path = try migratedDatabase(directory)
        let schema = try Processes.sqlite3(path, ".schema items").output
        #expect(schema.contains("TAGGED COLUMNS") || schema.contains("status_columns_match_status"))
        #expect(schema.contains("-- Status.inStock(quantity:)"))
        #expect(schema.contains("STRICT"))
    }
}
