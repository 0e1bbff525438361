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
