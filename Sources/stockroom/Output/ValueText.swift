import FoundationEssentials
import Glibc
import StockroomStore
import TextFormats

/// How one value of a query's result reads in each output format, on either engine.
enum ValueText {
    /// A JSON value keeping the value's kind: integers, reals and exact digits as numbers, NULL
    /// as null, booleans as `true`/`false`, text as a string, bytes as a base64 string.
    static func json(_ value: QueryValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        // JSON has no infinity; like SQLite's json(), write a number too large for a double.
        case .real(let real) where real.isInfinite: real < 0 ? "-9e999" : "9e999"
        case .real(let real) where real.isNaN: "null"
        case .real(let real): String(real)
        case .number("NaN"): "null"
        case .number("Infinity"): "9e999"
        case .number("-Infinity"): "-9e999"
        case .number(let digits): digits
        case .boolean(let value): String(value)
        case .text(let text): JSONText.string(text)
        case .bytes(let bytes): JSONText.string(Data(bytes).base64EncodedString())
        }
    }

    /// A CSV field before quoting: NULL is empty, bytes are base64 as in JSON.
    static func csv(_ value: QueryValue) -> String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): plain(real)
        case .number(let digits): digits
        case .boolean(let value): String(value)
        case .text(let text): text
        case .bytes(let bytes): Data(bytes).base64EncodedString()
        }
    }

    /// A table cell on one line: NULL reads `NULL`, bytes `x'0a1b'`, and control characters
    /// in text are escaped (`\n`, `\t`, `\u001b`; ``ControlCharacters/escaped(_:)``) so every row stays one
    /// line and nothing reaches the terminal raw.
    static func cell(_ value: QueryValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): plain(real)
        case .number(let digits): digits
        case .boolean(let value): String(value)
        case .bytes(let bytes): "x'" + bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined() + "'"
        case .text(let text): ControlCharacters.escaped(text)
        }
    }

    private static func plain(_ real: Double) -> String {
        real.isInfinite ? (real < 0 ? "-Inf" : "Inf") : String(real)
    }
}
