@testable import StockroomServer
import Testing

/// `HTML.escape` works on UTF-8 bytes (issue 29, the list page's time): the five characters
/// markup gives meaning to are replaced wherever they are, and nothing else changes, whatever
/// characters surround them.
@Suite struct HTMLEscapeTests {
    @Test func textWithNothingToEscapeIsUnchanged() {
        for text in ["", "Keyboard", "Shelf B3", "Crème brûlée", "🧀 cheddar", "e\u{301}clair"] {
            #expect(HTML.escape(text) == text)
        }
    }

    @Test func eachMarkupCharacterIsReplaced() {
        #expect(HTML.escape("&") == "&amp;")
        #expect(HTML.escape("<b>") == "&lt;b&gt;")
        #expect(HTML.escape("\"quoted\"") == "&quot;quoted&quot;")
        #expect(HTML.escape("it's") == "it&#39;s")
        #expect(HTML.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
    }

    @Test func charactersAroundTheReplacementsAreKept() {
        // A combining accent after `<`, an emoji and a multi-byte letter beside `&`: the bytes
        // of other characters pass through untouched.
        #expect(HTML.escape("<\u{301}") == "&lt;\u{301}")
        #expect(HTML.escape("🧀&é") == "🧀&amp;é")
        #expect(HTML.escape("名前<script>") == "名前&lt;script&gt;")
    }
}
