/// Hex digits, read and written in one place: an item's id (36 characters read on every row),
/// percent-encoded form fields, JSON's `\u` escapes and PostgreSQL's `bytea` text.
public enum HexDigits {
    /// Each byte's value as a hex digit in either case, or 0xFF for any other byte. A table,
    /// because reading an id looks up 32 digits (BENCHMARKS.md, "Then the id itself"); a byte
    /// that is not a digit leaves a high bit, so a reader can collect them instead of branching.
    public static let values: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    /// The value of `byte` as a hex digit in either case, or nil for any other byte.
    @inlinable
    public static func value(of byte: UInt8) -> UInt8? {
        let value = values[Int(byte)]
        return value < 16 ? value : nil
    }

    /// The lowercase hex digit of `value` (0 to 15).
    @inlinable
    public static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ value &- 10
    }
}
