import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `stockroom query` bounds what one statement may build: the length of any value and SQLite's
/// memory, so a single function call cannot run for seconds or take gigabytes.
@Suite struct QueryLimitTests {
    let database = CLIDatabase()

    init() throws {
        let added = try database.stockroom("items", "add", "--name", "Keyboard")
        #expect(added.status == 0, "\(added)")
    }

    @Test(arguments: [
        "SELECT length(printf('%.*c', 2000000000, 'x'))",
        "SELECT hex(zeroblob(499000000))",
        "SELECT printf('%999999999d', 1)",
        "SELECT length(format('%.2000000000f', 1.5))",
        "SELECT length(printf('%.*c%.*c', 10000000, 'x', 10000000, 'y'))",
        "SELECT randomblob(100000000)",
        // `%n` and `%5%` take no argument: the `*` reads the 2000000000.
        "SELECT length(printf('%n%.*c', 2000000000, 'x'))",
        "SELECT length(printf('%5%%.*c', 2000000000, 'x'))",
    ])
    func aValuePastTheMaximumLengthStopsTheQuery(sql: String) throws {
        let before = try database.contents()
        let result = try database.stockroom("query", "--timeout", "2", sql)
        expectFailure(result, code: .dataError, mentioning: "longer than 16777216 bytes")
        #expect(result.errorMessage.contains("--max-value-length"))
        #expect(try database.contents() == before)
    }

    @Test func printfStillFormatsWithinTheLimit() throws {
        let result = try database.stockroom("query", "--format", "csv",
            "SELECT printf('%5d|%-4s|%.2f|%*c', 42, 'ab', 3.14159, 3, 'z') AS p, format('%q', 'it''s') AS q, length(printf('%.*c', 1000000, 'x')) AS n")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["p,q,n", "   42|ab  |3.14|  z,it''s,1000000"])
    }

    /// `%n` and `%%` (even with flags and a width) take no argument in SQL's printf. Counting
    /// one for them read each later `*` from the argument after its own: the call below was
    /// refused for a width of 2000000000 it does not have, and `printf('%n%.*c', 2000000000,
    /// 'x')` ran SQLite's printf for seconds before being refused.
    @Test func conversionsWithoutAnArgumentDoNotShiftTheStars() throws {
        let result = try database.stockroom("query", "--format", "csv",
            "SELECT printf('%n%*d', 5, 2000000000) AS a, printf('%5%%*d', 3, 2000000000) AS b, printf('%-3n|%d', 7) AS c")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["a,b,c", "2000000000,    %2000000000,|7"])
    }

    @Test func aRaisedMaximumLengthLetsALongerValueThrough() throws {
        let sql = "SELECT length(hex(zeroblob(10000000))) AS n"
        expectFailure(try database.stockroom("query", sql), code: .dataError)
        let raised = try database.stockroom("query", "--max-value-length", "30000000", "--format", "csv", sql)
        #expect(raised.status == 0, "\(raised)")
        #expect(raised.lines == ["n", "20000000"])
    }

    @Test func aQueryPastTheMemoryLimitIsStopped() throws {
        let result = try database.stockroom("query", "--max-memory", "16", "--max-value-length", "100000000",
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 40) SELECT length(group_concat(hex(randomblob(500000)))) FROM r")
        expectFailure(result, code: .dataError, mentioning: "more than 16 MB of memory")
        #expect(result.errorMessage.contains("--max-memory"))
    }

    @Test(arguments: [["--max-value-length", "10"], ["--max-value-length", "2000000000"], ["--max-memory", "1"]])
    func limitsOutOfRangeAreUsageErrors(arguments: [String]) throws {
        let result = try database.stockroom(arguments: ["query"] + arguments + ["SELECT 1"])
        expectFailure(result, code: .usage)
    }
}
