import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

extension ServeCommandTests {
    @Test("an export that fails after the 200 went out breaks the transfer: curl reports it, never a short file as whole")
    func exportFailureIsVisible() throws {
        let server = try Server()
        // Enough rows that bytes are on the wire before the bad row is read.
        let rows = (0..<3000).map { #"{"name":"Row \#($0)","status":{"case":"inStock","quantity":1}}"# }.joined(separator: "\n") + "\n"
        let imported = try server.database.stockroom("import", "--format", "jsonl", "-", stdin: rows)
        #expect(imported.status == 0, "\(imported)")
        let url = "http://127.0.0.1:\(server.port)/api/export?format=jsonl"
        let directory = TemporaryDirectory()
        let whole = try Processes.run("/usr/bin/curl", ["--silent", "--show-error", "--output", directory.path("whole.jsonl"), url])
        #expect(whole.status == 0, "\(whole)")
        // A row only a hand edit with the CHECK constraints off can write; its id sorts last.
        _ = try server.database.sqlite3("""
            PRAGMA ignore_check_constraints = ON;
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('ffffffff-ffff-7fff-bfff-ffffffffffff', 'Bad', NULL, 'sold', NULL, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
            """)
        // The CLI refuses the same export: the failure is real.
        #expect(try server.database.stockroom("export", "--format", "jsonl").status != 0)
        let broken = try Processes.run("/usr/bin/curl", ["--silent", "--show-error", "--output", directory.path("broken.jsonl"), url])
        #expect(broken.status != 0, "curl took the broken export as complete: \(broken)")
        // 18: "partial file"; 56: "failure in receiving network data". Either names a broken transfer.
        #expect([18, 56].contains(broken.status), "\(broken)")
        let received = try Data(contentsOf: URL(fileURLWithPath: directory.path("broken.jsonl")))
        let complete = try Data(contentsOf: URL(fileURLWithPath: directory.path("whole.jsonl")))
        #expect(!received.isEmpty && received.count <= complete.count && complete.starts(with: received))
        // The server goes on serving.
        #expect(try RawHTTP.request(port: server.port, "GET", "/api/openapi.json").status == 200)
        #expect(server.stop().status == 0)
    }
}
