import Foundation
@testable import StockroomStore
import Testing

/// The strict JSON scanner behind `stockroom import` of JSON Lines.
@Suite struct JSONScannerTests {
    func string(_ json: String) throws -> String {
        var bytes = Array(json.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = JSONScanner(UnsafeBufferPointer(buffer))
            var output: [UInt8] = []
            try scanner.string(into: &output)
            let atEnd = scanner.isAtEnd()
            #expect(atEnd)
            return String(decoding: output, as: UTF8.self)
        }
    }

    @Test func escapesIncludingSurrogatePairsDecode() throws {
        #expect(try string(#""a\"b\\c\/d\n\t\r\b\f""#) == "a\"b\\c/d\n\t\r\u{8}\u{C}")
        #expect(try string(#""\u00e9\u0041\ud83d\ude00""#) == "éA😀")
        #expect(try string("\"é raw\"") == "é raw")
    }

    @Test func malformedStringsAreRefused() {
        #expect(throws: RowProblem.self) { try string(#""\ud83d""#) }
        #expect(throws: RowProblem.self) { try string("\"a\u{1}b\"") }
        #expect(throws: RowProblem.self) { try string(#""open"#) }
        #expect(throws: RowProblem.self) { try string(#""\x""#) }
    }

    func integer(_ json: String) throws -> Int {
        var bytes = Array(json.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = JSONScanner(UnsafeBufferPointer(buffer))
            return try scanner.integer()
        }
    }

    /// Found by the json-scanner fuzz target (Foundation's parser as the judge): `07766279631452241918`
    /// was read as a number, though RFC 8259 allows no leading zero.
    @Test func numbersWithLeadingZerosAreRefused() throws {
        #expect(throws: RowProblem.self) { try integer("07") }
        #expect(throws: RowProblem.self) { try integer("-01") }
        #expect(throws: RowProblem.self) { try integer("00") }
        #expect(try integer("0") == 0)
        #expect(try integer("-0") == 0)
        #expect(try integer("10") == 10)
    }

    /// Found by the json-scanner fuzz target: the most negative Int, written in decimal, was
    /// "number too large" (the magnitude was built positive, one past Int.max). The CSV import's
    /// number reader had the same flaw.
    @Test func theWholeRangeOfIntReadsBack() throws {
        #expect(try integer(String(Int.min)) == Int.min)
        #expect(try integer(String(Int.max)) == Int.max)
        #expect(throws: RowProblem.self) { try integer("9223372036854775808") }
        #expect(throws: RowProblem.self) { try integer("-9223372036854775809") }
        for text in [String(Int.min), String(Int.max), "-0", "12"] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { ImportRowDecoder.integer($0) } == Int(text))
        }
        #expect(Array("-9223372036854775809".utf8).withUnsafeBufferPointer { ImportRowDecoder.integer($0) } == nil)
    }

    @Test func numbersAreWholeAndBooleansExact() throws {
        var bytes = Array("[12,-3,1.5,true,nul]".utf8)
        try bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = JSONScanner(UnsafeBufferPointer(buffer))
            try scanner.expect(UInt8(ascii: "["))
            #expect(try scanner.integer() == 12)
            #expect(try scanner.more(before: UInt8(ascii: "]")))
            #expect(try scanner.integer() == -3)
            #expect(try scanner.more(before: UInt8(ascii: "]")))
            var failed = false
            do { _ = try scanner.integer() } catch { failed = true }
            #expect(failed)
        }
    }
}
