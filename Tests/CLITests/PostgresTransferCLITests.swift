import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `export` and `import` on a PostgreSQL server: the real binary against a throwaway server,
/// compared with the same commands on a SQLite file.
@Suite struct PostgresTransferCLITests {
    /// The filled inventory of ``CopyCommandTests`` plus names CSV must quote or guard against
    /// spreadsheet formulas, and enough items that a server is read in more than one page.
    static func fileAndServerWithTheSameRows() throws -> (file: CLIDatabase, server: PostgresScratchSchema) {
        let file = try CopyCommandTests.filledInventory()
        _ = try file.sqlite3("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('00000000-0000-7000-8000-000000000002', '=SUM(A1)', 'green', 'in_stock', 7, NULL,
                    '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z'),
                   ('00000000-0000-7000-8000-000000000003', 'Comma, "quoted" é', NULL, 'out_of_stock', NULL, 0,
                    '2026-01-03T00:00:00.000Z', '2026-01-04T00:00:00.000Z');
            WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < \(ItemExportPageSpan.rows))
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            SELECT printf('10000000-0000-7000-8000-%012d', value), 'Bulk ' || value, NULL, 'in_stock', value, NULL,
                   '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z' FROM n;
            """)
        let server = try PostgresScratchSchema()
        let copied = try CopyCommandTests.copy("--from", file.path, "--to", server.uri)
        #expect(copied.status == 0, "\(copied)")
        return (file, server)
    }

    @Test func exportOfTheSameRowsIsByteIdenticalOnAFileAndOnAServerInEveryFormat() throws {
        let (file, server) = try PostgresTransferCLITests.fileAndServerWithTheSameRows()
        for format in ["jsonl", "csv", "json"] {
            let fromFile = try Processes.stockroom(["export", "--format", format, "--db", file.path])
            let fromServer = try Processes.stockroom(["export", "--format", format, "--db", server.uri])
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromServer.status == 0, "\(fromServer.stderr)")
            #expect(fromServer.stderr.isEmpty)
            if format != "json" { #expect(fromFile.lines.count >= ItemExportPageSpan.rows + 5, "\(format): every row, past one page") }
            #expect(Data(fromServer.stdout.utf8) == Data(fromFile.stdout.utf8), "\(format) differs")
        }
        let folder = TemporaryDirectory()
        let written = folder.path("server.csv")
        let toFile = try Processes.stockroom(["export", "--format", "csv", "--output", written, "--db", server.uri])
        #expect(toFile.status == 0, "\(toFile)")
        #expect(toFile.stdout.isEmpty)
        let fromFile = try Processes.stockroom(["export", "--format", "csv", "--db", file.path])
        #expect(try Data(contentsOf: URL(fileURLWithPath: written)) == Data(fromFile.stdout.utf8))
    }

    @Test func exportOfAServerWithoutTablesIsEmptyAndCreatesNothing() throws {
        let server = try PostgresScratchSchema()
        let result = try Processes.stockroom(["export", "--format", "json", "--db", server.uri])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "[]\n")
        let tables = try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(server.name)'")
        #expect(tables.lines.contains { $0.trimmingCharacters(in: .whitespaces) == "0" }, "\(tables)")
    }
}

/// How many bulk items the comparison adds: more than one page of a server's export.
enum ItemExportPageSpan {
    static let rows = 10_001
}
