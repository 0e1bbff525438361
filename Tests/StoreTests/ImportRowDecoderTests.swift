import Foundation
@testable import StockroomStore
import Testing

/// The import's row decoder on the times a row may carry.
@Suite struct ImportRowDecoderTests {
    func updatedAt(_ time: String) throws -> String {
        let line = Array(#"{"name":"n","status":{"case":"inStock","quantity":1},"updatedAt":"# .utf8) + Array(time.utf8) + Array("}".utf8)
        let decoder = ImportRowDecoder()
        let row = try line.withUnsafeBufferPointer { try decoder.decode(jsonLine: $0) }
        #expect(row.hasUpdatedAt)
        return String(decoding: decoder.updatedAt, as: UTF8.self)
    }

    @Test(arguments: ["2026-11-25T09:21:56Z", "2026-11-25T09:21:56.068Z", "2026-11-25T09:21:56.123456789Z"])
    func aTimeAsStockroomWritesItIsTaken(time: String) throws {
        #expect(try updatedAt("\"" + time + "\"") == time)
    }

    /// Found by the import-row fuzz target: a row whose time held `\udd1e\n` (written escaped
    /// in the file) was imported, and `export` then wrote the time unescaped, a JSON line that
    /// no longer reads back. A quote or a comma broke the JSON or CSV export the same way.
    @Test(arguments: [#""2026-11-25T09:21:56834\\udd1e\\n.068Z""#, #""2026-11-25T09:21:56\",\"x\":\"Z""#,
                      #""2026-11-25T09:21:56,0Z""#, #""2026-11-25T09:21:56.Z""#, #""2026-11-25T09:21:56.12 Z""#,
                      #""2026-11-25T09:21:56+01:00Z""#])
    func anythingElseAfterTheSecondsIsRefused(literal: String) {
        let error = #expect(throws: RowProblem.self) { try updatedAt(literal) }
        #expect(error?.reason.contains("is not an ISO-8601 UTC time") == true, "\(String(describing: error))")
    }
}
