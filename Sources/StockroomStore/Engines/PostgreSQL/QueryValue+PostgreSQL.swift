import FoundationEssentials
import Glibc
import PostgresCore
import TextFormats

// A PostgreSQL value arrives as text; its column's type says which ``QueryValue`` it is, so
// that it writes as SQLite's value of the same kind would: integers and floats as numbers,
// `numeric` as its exact digits, `bytea` as bytes, NULL as null, `boolean` as `true`/`false`;
// every other type (text, uuid, timestamps, json…) as its text.
extension QueryValue {
    /// How a column of type `oid` is read.
    enum Kind {
        case integer, real, number, boolean, bytes, text

        init(typeOID: UInt32) {
            switch typeOID {
            case 20, 21, 23, 26: self = .integer
            case 700, 701: self = .real
            case 1700: self = .number
            case 16: self = .boolean
            case 17: self = .bytes
            default: self = .text
            }
        }
    }

    /// The value of `text` (nil for NULL) in a column of `kind`; text a kind cannot read is
    /// kept as text rather than lost.
    init(_ text: String?, kind: Kind) {
        guard let text else {
            self = .null
            return
        }
        switch kind {
        case .integer: self = Int64(text).map(QueryValue.integer) ?? .text(text)
        case .real: self = (try? Double.decode(postgresText: text)).map(QueryValue.real) ?? .text(text)
        case .number: self = .number(text)
        case .boolean: self = text == "t" ? .boolean(true) : text == "f" ? .boolean(false) : .text(text)
        case .bytes: self = QueryValue.hexBytes(text).map(QueryValue.bytes) ?? .text(text)
        case .text: self = .text(text)
        }
    }

    /// The bytes of `bytea`'s hex output (`\x0a1b`), the server's default form (set per session
    /// by `stockroom query`).
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = HexDigits.value(of: digits[index]), let low = HexDigits.value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
