/// The syntax of JSON (RFC 8259), checked without building anything: whether a request body is
/// JSON at all, before any member is looked at (malformed JSON is 400, JSON saying the wrong
/// thing 422). Foundation's `JSONDecoder` is more lenient (it takes `{"a":1,}`), so it cannot
/// tell the two apart.
enum JSONSyntax {
    /// Arrays and objects nested deeper than this are refused: the check recurses, and a body
    /// of `[[[[…` must cost a 400, not the server's stack.
    static let maximumDepth = 512

    /// Whether `text` is exactly one JSON value, with only whitespace around it.
    static func isWellFormed(_ text: String) -> Bool {
        var scanner = Scanner(bytes: Array(text.utf8))
        return scanner.value(depth: 0) && scanner.isAtEnd()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }

        mutating func isAtEnd() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        /// Consumes `byte` when it comes next, after whitespace.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func value(depth: Int) -> Bool {
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < JSONSyntax.maximumDepth else { return false }
                index += 1
                if take(UInt8(ascii: "}")) { return true }
                repeat {
                    skipWhitespace()
                    guard string(), take(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                guard depth < JSONSyntax.maximumDepth else { return false }
                index += 1
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    guard value(depth: depth + 1) else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return word("true")
            case UInt8(ascii: "f"): return word("false")
            case UInt8(ascii: "n"): return word("null")
            default: return number()
            }
        }

        mutating func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A string; the text is a Swift `String`, so its bytes are valid UTF-8 already.
        mutating func string() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return false }
                    let escaped = bytes[index]
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy(\.isHexDigit) else { return false }
                        index += 4
                    } else if !Array("\"\\/bfnrt".utf8).contains(escaped) {
                        return false
                    }
                case 0..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> Bool {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, bytes[index].isDigit else { return false }
            if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, bytes[index].isDigit else { return false }
                skipDigits()
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, bytes[index].isDigit else { return false }
                skipDigits()
            }
            return true
        }

        mutating func skipDigits() {
            while index < bytes.count, bytes[index].isDigit { index += 1 }
        }
    }
}

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
