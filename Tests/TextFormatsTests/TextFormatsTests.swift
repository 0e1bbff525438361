import Foundation
import TextFormats
import Testing

/// The one JSON escaper (string and byte forms agree), CSV quoting and table alignment.
@Suite struct TextFormatsTests {
    static let strings = ["plain", "quote \" and backslash \\", "line\nbreak\ttab\r", "control \u{01}\u{1F}\u{7F}",
                          "C1 \u{80}\u{9B}\u{9F} and after \u{A0}", "émoji 🎉 中文", ""]

    /// Collects bytes as the export's buffered writer does.
    final class Bytes: ByteSink {
        var bytes: [UInt8] = []
        func append(_ byte: UInt8) { bytes.append(byte) }
        func append(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
        func append(_ text: StaticString) { append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
    }

    @Test(arguments: strings)
    func aJSONStringParsesBackAndCarriesNoControlCharacter(_ value: String) throws {
        let literal = JSONText.string(value)
        #expect(try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String] == [value])
        #expect(!literal.unicodeScalars.contains(where: ControlCharacters.contains), "\(literal.debugDescription)")
    }

    @Test(arguments: strings)
    func theByteWriterEscapesExactlyAsTheStringForm(_ value: String) throws {
        let sink = Bytes()
        var utf8 = Array(value.utf8)
        try utf8.withUnsafeMutableBufferPointer { try JSONText.writeString(UnsafeBufferPointer($0), to: sink) }
        #expect(String(decoding: sink.bytes, as: UTF8.self) == JSONText.string(value))
    }

    @Test func controlCharactersAreEscapedInTheirShortestForm() {
        #expect(JSONText.string("a\u{1B}b\n\u{9B}") == #""a\u001bb\n\u009b""#)
        #expect(ControlCharacters.escaped("tab\there \"q\"") == #"tab\there \"q\""#)
        #expect(ControlCharacters.escaped("no controls \"q\"") == "no controls \"q\"")
    }

    @Test func objectsKeepTheirMemberOrderAndEscapeKeys() {
        #expect(JSONText.object(["b": "1", "a": JSONText.string(nil), "k\"ey": "[]"]) == #"{"b":1,"a":null,"k\"ey":[]}"#)
        #expect(JSONText.array([]) == "[]")
        #expect(JSONText.array(["1", "true"]) == "[1,true]")
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        #expect(CSVText.record(["plain", "a,b", "say \"hi\"", "two\nlines", "bell\u{7}", ""]) ==
                "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"bell\u{7}\",\r\n")
    }

    @Test func tablesPadEveryColumnButTheLast() {
        #expect(TextTable.lines(header: ["ID", "NAME"], rows: [["1", "Keyboard"], ["100", "Mug"]])
            == ["ID   NAME", "1    Keyboard", "100  Mug"])
        #expect(TextTable.line(["12345", "x"], widths: [3, 1]) == "12345  x")
    }
}
