@testable import StockroomServer
import Testing

/// The percent-encoding, form parsing and trimming that replaced Foundation's, checked against
/// what Foundation's `addingPercentEncoding`, `removingPercentEncoding` and
/// `trimmingCharacters(in:)` returned for the same inputs.
@Suite struct FormTextTests {
    @Test func encodingEscapesEveryByteButASCIILettersDigitsAndUnreserved() {
        #expect(PercentEncoding.encode("é a+b ü/½²") == "%C3%A9%20a%2Bb%20%C3%BC%2F%C2%BD%C2%B2")
        #expect(PercentEncoding.encode("Az09-._~") == "Az09-._~")
        #expect(PercentEncoding.encode("") == "")
    }

    @Test func decodingIsNilForABadEscapeOrBytesThatAreNotUTF8() {
        #expect(PercentEncoding.decode("a%20b") == "a b")
        #expect(PercentEncoding.decode("%e2%82%AC") == "€")
        #expect(PercentEncoding.decode("%00x") == "\u{0}x")
        for bad in ["%zz", "%C3", "%e2%82%ac%2", "%", "a%2"] {
            #expect(PercentEncoding.decode(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: ["", "plain", "a b&c=d", "ünï çødé", "%+=&?#/", "😀 x"])
    func encodingThenDecodingGivesTheTextBack(_ text: String) {
        #expect(PercentEncoding.decode(PercentEncoding.encode(text)) == text)
    }

    @Test func aFormKeepsTheRawTextOfABadEscapeWithPlusAsASpace() {
        let form = Form("name=100%+sure&q=a+b%21&empty=&bare&name=second")
        #expect(form["name"] == "100% sure")
        #expect(form["q"] == "a b!")
        #expect(form["empty"] == "")
        #expect(form["bare"] == "")
        #expect(form.nonEmpty("empty") == nil)
    }

    @Test func trimmingMatchesFoundationsCharacterSets() {
        #expect(" \t\u{00A0}a b\u{3000} ".trimmingWhitespace() == "a b")
        #expect("\na\n".trimmingWhitespace() == "\na\n")
        #expect("\r\n\t\u{85}\u{2028} a \u{2029}\u{0B}\u{0C}".trimmingWhitespaceAndNewlines() == "a")
        #expect("   ".trimmingWhitespaceAndNewlines() == "")
        #expect("\"abc\" ".trimming(["\"", " "]) == "abc")
    }
}
