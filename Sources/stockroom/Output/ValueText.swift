import FoundationEssentials
import Glibc
import SQLiteCore
import TextFormats

/// How one SQLite value reads in each output format.
enum ValueText {
    /// A JSON value keeping SQLite's storage class: integers and reals as numbers, NULL as
    /// null, text as a string, a blob as a base64 string.
    static func json(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): String(integer)
        // JSON has no infinity; like SQLite's json(), write a number too large for a double.
        case .real(let real) where real.isInfinite: real < 0 ? "-9e999" : "9e999"
        case .real(let real) where real.isNaN: "null"
        case .real(let real): String(real)
        case .text(let text): JSONText.string(text)
        case .blob(let bytes): JSONText.string(Data(bytes).base64EncodedString())
        }
    }

    /// A CSV field before quoting: NULL is empty, a blob is base64 as in JSON.
    static func csv(_ value: SQLiteValue) -> String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): plain(real)
        case .text(let text): text
        case .blob(let bytes): Data(bytes).base64EncodedString()
        }
    }

    /// A table cell on one line: NULL reads `NULL`, a blob `x'0a1b'`, and control characters
    /// in text are escaped (`\n`, `\t`, `\u001b`; ``ControlCharacters/escaped(_:)``) so every row stays one
    /// line and nothing reaches the terminal raw.
    static func cell(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return plain(real)
        case .blob: return value.debugDescription
        case .text(let text): return ControlCharacters.escaped(text)
        }
    }

    private static func plain(_ real: Double) -> String {
        real.isInfinite ? (real < 0 ? "-Inf" : "Inf") : String(real)
    }
}

extension SQLiteValue: ResultValue {
    var json: String { ValueText.json(self) }
    var csvField: String { ValueText.csv(self) }
    var tableCell: String { ValueText.cell(self) }
}
