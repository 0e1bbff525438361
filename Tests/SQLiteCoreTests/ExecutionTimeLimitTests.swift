import SQLiteCore
import Testing

/// Stopping a runaway statement through the progress handler.
@Suite struct ExecutionTimeLimitTests {
    static let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"

    @Test func anEndlessQueryIsInterrupted() throws {
        let database = try Database(path: ":memory:")
        let limit = ExecutionTimeLimit(database: database, seconds: 0.2)
        let statement = try database.prepare(Self.endless)
        let error = try #require(throws: SQLiteError.self) { try limit.step(statement) }
        #expect(error.isInterrupted)
        #expect(limit.isExhausted)
    }

    @Test func aQueryWithinItsBudgetCompletes() throws {
        let database = try Database(path: ":memory:")
        let limit = ExecutionTimeLimit(database: database, seconds: 60)
        let statement = try database.prepare("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) SELECT count(*) FROM n")
        #expect(try limit.step(statement))
        #expect(statement.int(at: 0) == 10000)
        #expect(!limit.isExhausted)
    }

    @Test func releasingTheLimitRemovesItsHandler() throws {
        let database = try Database(path: ":memory:")
        var limit: ExecutionTimeLimit? = ExecutionTimeLimit(database: database, seconds: 0)
        let statement = try database.prepare("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT count(*) FROM n")
        #expect(throws: SQLiteError.self) { try limit?.step(statement) }
        statement.reset()
        limit = nil
        #expect(try statement.step())
        #expect(statement.int(at: 0) == 100000)
    }
}
