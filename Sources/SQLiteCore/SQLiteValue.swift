import FoundationEssentials
import Glibc
/// A value as SQLite stores it: one of its five storage classes.
///
/// Used where types are only known at run time (ad-hoc queries, error arguments). Repositories
/// bind and read typed values directly and never box them.
public enum SQLiteValue: Sendable, Equatable, CustomDebugStringConvertible {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes, stored as they are given.
    case blob([UInt8])

    /// How the value reads in an error message: SQL literal syntax.
    public var debugDescription: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacing("'", with: "''") + "'"
        case .blob(let bytes): "x'" + bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined() + "'"
        }
    }
}
