import Foundation
import StockroomTestSupport
import Testing

/// Large results stream: rows reach the reader while the query is still running. Each query is
/// endless, so a buffering implementation would print nothing until --timeout stopped it, and
/// the test would fail then; the timeout is also what bounds the test.
@Suite struct QueryStreamingTests {
    let database = CLIDatabase()
    let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i, 'row ' || i AS label FROM n"

    init() throws {
        #expect(try database.stockroom("migrate", "up").status == 0)
    }

    func firstLines(_ count: Int, format: String) throws -> StreamingProcess.Reading {
        try StreamingProcess.firstLines(count, of: Processes.stockroomPath,
                                        ["query", "--format", format, "--timeout", "30", endless],
                                        environment: ["STOCKROOM_DB": database.path])
    }

    @Test func jsonStreams() throws {
        let reading = try firstLines(3, format: "json")
        #expect(reading.wasStillRunning)
        #expect(reading.lines == ["[", "{\"i\":1,\"label\":\"row 1\"},", "{\"i\":2,\"label\":\"row 2\"},"])
    }

    @Test func csvStreams() throws {
        let reading = try firstLines(3, format: "csv")
        #expect(reading.wasStillRunning)
        #expect(reading.lines == ["i,label\r", "1,row 1\r", "2,row 2\r"])
    }

    @Test func theTableStreamsAfterItsLookAhead() throws {
        // The header and the first 1000 rows are sized together; the next rows keep that width
        // although their numbers are wider.
        let reading = try firstLines(1_003, format: "table")
        #expect(reading.wasStillRunning)
        #expect(reading.lines.first == "i     label")
        #expect(reading.lines[1] == "1     row 1")
        #expect(reading.lines[1_000] == "1000  row 1000")
        #expect(reading.lines[1_001] == "1001  row 1001")
        #expect(reading.lines[1_002] == "1002  row 1002")
    }
}
