import Foundation
import FuzzSupport
@testable import StockroomStore
import TextFormats

// The JSON scanner (Sources/StockroomStore/Transfer/JSONScanner.swift) on any bytes, walked as
// a JSON value the way the import decoder walks a line. Properties, beyond not crashing:
// - the scanner never reads past the input (AddressSanitizer) nor moves its index past it;
// - what it accepts, Foundation's JSON parser accepts too (RFC 8259 is the contract), and a
//   string it unescapes is the string Foundation reads;
// - a string written by TextFormats' JSON writer reads back as the same text, and a number
//   written in decimal reads back as the same Int.

/// Walks one value with the scanner's own calls (objects, strings, numbers, true/false, null);
/// the scanner has no arrays, as the import shape has none. Returns the strings it read.
func walkValue(_ scanner: inout JSONScanner, depth: Int, strings: inout [[UInt8]]) throws(RowProblem) {
    guard depth < 32 else { throw RowProblem("too deep for the walk") }
    var buffer: [UInt8] = []
    switch scanner.peek() {
    case UInt8(ascii: "\""):
        try scanner.string(into: &buffer)
        strings.append(buffer)
    case UInt8(ascii: "{"):
        try scanner.expect(UInt8(ascii: "{"))
        if scanner.peek() == UInt8(ascii: "}") { scanner.index += 1; return }
        repeat {
            try scanner.string(into: &buffer)
            strings.append(buffer)
            try scanner.expect(UInt8(ascii: ":"))
            try walkValue(&scanner, depth: depth + 1, strings: &strings)
        } while try scanner.more(before: UInt8(ascii: "}"))
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
        _ = try scanner.bool()
    case UInt8(ascii: "n"):
        guard scanner.null() else { throw scanner.problem("expected null") }
    default:
        _ = try scanner.integer()
    }
    require(scanner.index <= scanner.bytes.count, "index \(scanner.index) past the end (\(scanner.bytes.count))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONScanner(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = bytes(data, size)

    // 1. The input as a document.
    var strings: [[UInt8]] = []
    let accepted = input.withUnsafeBufferPointer { buffer -> Bool in
        var scanner = JSONScanner(buffer)
        do {
            try walkValue(&scanner, depth: 0, strings: &strings)
            return scanner.isAtEnd()
        } catch {
            require(scanner.index <= buffer.count, "index \(scanner.index) past the end (\(buffer.count)) after \(error)")
            return false
        }
    }
    // The scanner leaves UTF-8 to its caller; Foundation checks it, so compare valid text only.
    if accepted, String(validating: input, as: UTF8.self) != nil {
        let parsed = try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])
        require(parsed != nil, "the scanner accepts \(String(decoding: input, as: UTF8.self).debugDescription), Foundation refuses it")
        if let text = parsed as? String, strings.count == 1 {
            require(Array(text.utf8) == strings[0], "the scanner reads \(strings[0]), Foundation \(Array(text.utf8))")
        }
    }

    // 2. The input as text, written by the export's JSON writer and read back.
    let text = String(decoding: input, as: UTF8.self)
    let literal = Array((" " + JSONText.string(text) + "\t").utf8)
    literal.withUnsafeBufferPointer { buffer in
        var scanner = JSONScanner(buffer)
        var read: [UInt8] = []
        do {
            try scanner.string(into: &read)
        } catch {
            require(false, "JSONText wrote \(String(decoding: literal, as: UTF8.self).debugDescription), the scanner refuses it: \(error)")
        }
        require(read == Array(text.utf8), "JSONText's \(String(decoding: literal, as: UTF8.self).debugDescription) reads back as \(read)")
        require(scanner.isAtEnd(), "text after the literal")
    }

    // 3. The first eight bytes as a number, written in decimal and read back.
    if input.count >= 8 {
        let value = input.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: Int.self) }
        let decimal = Array(String(value).utf8)
        decimal.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            let read = try? scanner.integer()
            require(read == value, "\(value) in decimal reads back as \(String(describing: read))")
        }
    }
    return 0
}

runFuzzer(fuzzJSONScanner)
