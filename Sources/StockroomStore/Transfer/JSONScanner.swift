import TextFormats

/// A strict scanner for one line of JSON (RFC 8259) over bytes, used to read the fixed object
/// shape of an exported item without building a dictionary per line.
///
/// Strings are unescaped into a caller's reused buffer; numbers are whole numbers only (the
/// shape has no other kind). Anything else is a ``RowProblem`` naming what was expected.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next byte after any whitespace, without consuming it; nil at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return bytes[index]
            }
        }
        return nil
    }

    /// Consumes `byte` (after whitespace) or fails naming it.
    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(RowProblem) {
        guard peek() == byte else { throw problem("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    /// After a member or element: true when a comma follows, false at `closing`.
    @inline(__always)
    mutating func more(before closing: UInt8) throws(RowProblem) -> Bool {
        switch peek() {
        case UInt8(ascii: ","): index += 1; return true
        case closing: index += 1; return false
        default: throw problem("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
    }

    /// True at the end of the input, whitespace aside.
    mutating func isAtEnd() -> Bool { peek() == nil }

    /// Consumes `null` when it comes next.
    @inline(__always)
    mutating func null() -> Bool {
        guard peek() == UInt8(ascii: "n"), index + 4 <= bytes.count,
              bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// A `true` or `false`.
    mutating func bool() throws(RowProblem) -> Bool {
        if matchWord("true") { return true }
        if matchWord("false") { return false }
        throw problem("expected true or false")
    }

    private mutating func matchWord(_ word: StaticString) -> Bool {
        guard peek() != nil, index + word.utf8CodeUnitCount <= bytes.count else { return false }
        for offset in 0..<word.utf8CodeUnitCount where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += word.utf8CodeUnitCount
        return true
    }

    /// A whole number (no fraction or exponent, no leading zero) that fits in `Int`.
    mutating func integer() throws(RowProblem) -> Int {
        guard let first = peek() else { throw problem("expected a number") }
        var negative = false
        if first == UInt8(ascii: "-") { negative = true; index += 1 }
        var value = 0
        var digits = 0
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            // Built towards its sign, so the most negative Int (one past the most positive) fits.
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { throw problem("number too large") }
            value = sum
            digits += 1
            index += 1
        }
        if digits == 0 { throw problem("expected a number") }
        // RFC 8259: a number has no leading zeros, so `007` is not JSON (nor is `-01`).
        if digits > 1 && bytes[start] == UInt8(ascii: "0") { throw problem("a number with a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            throw problem("expected a whole number")
        }
        return value
    }

    /// A string, unescaped into `output` (which is emptied first). Bytes above 0x7F are copied
    /// as they are; the caller validates UTF-8 where it builds text.
    mutating func string(into output: inout [UInt8]) throws(RowProblem) {
        output.removeAll(keepingCapacity: true)
        try expect(UInt8(ascii: "\""))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"): try unicodeEscape(into: &output)
                default: throw problem("unknown escape in a string")
                }
            case 0..<0x20:
                throw problem("a control character in a string must be escaped")
            default:
                output.append(byte)
            }
        }
        throw problem("a string is not closed")
    }

    private mutating func hex4() throws(RowProblem) -> UInt32 {
        guard index + 4 <= bytes.count else { throw problem("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            guard let digit = HexDigits.value(of: byte) else { throw problem("expected four hex digits after \\u") }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func unicodeEscape(into output: inout [UInt8]) throws(RowProblem) {
        var scalar = try hex4()
        if scalar >= 0xD800 && scalar < 0xDC00 {
            // A high surrogate must be followed by an escaped low one.
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw problem("a lone surrogate in \\u escape")
            }
            index += 2
            let low = try hex4()
            guard low >= 0xDC00 && low < 0xE000 else { throw problem("a lone surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00 && scalar < 0xE000 {
            throw problem("a lone surrogate in \\u escape")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw problem("an invalid \\u escape") }
        for unit in UTF8.encode(unicode)! { output.append(unit) }
    }

    /// A problem at the current position.
    func problem(_ text: String) -> RowProblem {
        RowProblem("invalid JSON at column \(index + 1): \(text)")
    }
}
