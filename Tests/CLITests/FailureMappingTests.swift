import SQLiteCore
@testable import stockroom
import StockroomStore
import Testing

/// The exit-code table for failures that cannot be provoked from outside on demand.
@Suite struct FailureMappingTests {
    @Test func anIOErrorAtCommitSaysTheOutcomeIsUnknown() {
        let error = SQLiteError(extendedCode: 1034, message: "disk I/O error", sql: "COMMIT", isCommitOutcomeUnknown: true)
        let (code, message) = Failure.classify(error)
        #expect(code == .ioError)
        #expect(message.contains("may or may not have been saved"))
        #expect(!message.contains("failed"))
    }

    @Test func busyAndLockedAreTemporaryFailures() {
        #expect(Failure.classify(SQLiteError(extendedCode: 5, message: "database is locked")).0 == .busy)
        #expect(Failure.classify(SQLiteError(extendedCode: 517, message: "database is locked")).0 == .busy)
        #expect(Failure.classify(SQLiteError(extendedCode: 6, message: "database table is locked")).0 == .busy)
    }

    @Test func multiLineMessagesBecomeOneLine() {
        let folded = Failure.oneLine("The value 'x' is invalid for '--color <color>'. Please provide one of the following:\n- black\n- blue\n")
        #expect(folded == "the value 'x' is invalid for '--color <color>'. Please provide one of the following: black, blue")
    }
}
