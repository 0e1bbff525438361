import TextFormats

/// `%XX` escapes for query and form values, written out because Foundation's
/// `addingPercentEncoding` and `removingPercentEncoding` live in its full module.
enum PercentEncoding {
    /// `text` with every UTF-8 byte other than an ASCII letter, digit or `-._~` written `%XX`
    /// (upper-case hex), as `addingPercentEncoding(withAllowedCharacters:)` did with
    /// `CharacterSet.alphanumerics` plus `-._~` (it escapes non-ASCII letters too).
    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with each `%XX` (either case) replaced by its byte; nil, as
    /// `removingPercentEncoding` returned, when a `%` is not followed by two hex digits or the
    /// bytes are not UTF-8.
    static func decode<Text: StringProtocol>(_ text: Text) -> String? {
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            guard input[index] == UInt8(ascii: "%") else {
                bytes.append(input[index])
                index += 1
                continue
            }
            guard index + 2 < input.count, let high = HexDigits.value(of: input[index + 1]),
                  let low = HexDigits.value(of: input[index + 2]) else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
