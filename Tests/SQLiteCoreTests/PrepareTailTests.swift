import SQLiteCore
import Testing

/// `prepare` reads what follows the first statement to refuse a second one. That text lives in
/// a temporary C string; reading it after the string was released crashed the process.
@Suite struct PrepareTailTests {
    @Test func aTrailingCommentIsNotASecondStatement() throws {
        let database = try Database(path: ":memory:")
        let statement = try database.prepare("SELECT 41 + 1; -- the answer, with a comment after it")
        #expect(try statement.step())
        #expect(statement.int(at: 0) == 42)
    }

    @Test func aSecondStatementIsRefused() throws {
        let database = try Database(path: ":memory:")
        let padding = String(repeating: " ", count: 4_096)
        let error = try #require(throws: SQLiteError.self) { try database.prepare("SELECT 1;\(padding)SELECT 2") }
        #expect(error.message == "only one statement may be run at a time; found more after the first")
    }
}
