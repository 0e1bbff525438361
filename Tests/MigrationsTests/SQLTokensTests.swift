@testable import StockroomMigrations
import Testing

/// The normalisation that lets verify ignore layout but not meaning.
@Suite struct SQLTokensTests {
    @Test func dropsCommentsAndLayoutAndUppercasesWords() {
        #expect(SQLTokens.normalised("create  index i\n on t(a) -- why\n /* note */") ==
                ["CREATE", "INDEX", "I", "ON", "T", "(", "A", ")"])
    }

    @Test func keepsLiteralsAndQuotedNamesExactly() {
        #expect(SQLTokens.normalised("SELECT 'It''s -- not a comment', \"Mixed Case\", [a b], `x`") ==
                ["SELECT", "'It''s -- not a comment'", ",", "\"Mixed Case\"", ",", "[a b]", ",", "`x`"])
    }

    @Test func showsTheFirstDifferenceWithContext() {
        // Four tokens of common context, the rest up to six tokens from the difference.
        let (expected, actual) = SQLTokens.firstDifference(
            ["CREATE", "TABLE", "T", "(", "A", "INTEGER", ")"], ["CREATE", "TABLE", "T", "(", "A", "TEXT", ")"])
        #expect(expected == "… TABLE T ( A INTEGER )")
        #expect(actual == "… TABLE T ( A TEXT )")
    }
}
