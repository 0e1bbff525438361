import FoundationEssentials
import Glibc

extension UUID {
    /// A new time-ordered UUID (version 7, RFC 9562): 48 bits of Unix milliseconds, then random
    /// bits. Ids made one after another sort together, so inserts append to the end of a B-tree
    /// index instead of touching random pages.
    public static func version7(now: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let random = generator.next() as UInt64
        let random2 = generator.next() as UInt64
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 0..<6 { raw[index] = UInt8(truncatingIfNeeded: milliseconds >> UInt64(40 - index * 8)) }
            for index in 6..<16 { raw[index] = UInt8(truncatingIfNeeded: (index < 14 ? random : random2) >> UInt64((index % 8) * 8)) }
            raw[6] = 0x70 | (raw[6] & 0x0F)   // version 7
            raw[8] = 0x80 | (raw[8] & 0x3F)   // RFC 9562 variant
        }
        return UUID(uuid: bytes)
    }

    /// The canonical lowercase text form, e.g. `0193a1f2-…`, as stored in the database.
    public var lowercasedString: String {
        withLowercasedUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the canonical lowercase text form as 36 UTF-8 bytes on the stack, so
    /// binding an id to a statement allocates nothing.
    @inline(__always)
    public func withLowercasedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        // A tuple on the stack rather than withUnsafeTemporaryAllocation, which looked up the
        // generic metadata of Swift's `Result` on every call: 336 instructions, half the cost
        // of writing an id (BENCHMARKS.md, `copy` into PostgreSQL).
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &text) { buffer in
            let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            // Spelled out byte by byte, positions as constants: a loop over the bytes with a
            // test for the dashes cost 500 instructions an id.
            @inline(__always) func put(_ byte: UInt8, at position: Int) {
                out[position] = UUID.hexDigit(byte >> 4)
                out[position + 1] = UUID.hexDigit(byte & 0x0F)
            }
            let bytes = uuid
            put(bytes.0, at: 0); put(bytes.1, at: 2); put(bytes.2, at: 4); put(bytes.3, at: 6)
            out[8] = UInt8(ascii: "-")
            put(bytes.4, at: 9); put(bytes.5, at: 11)
            out[13] = UInt8(ascii: "-")
            put(bytes.6, at: 14); put(bytes.7, at: 16)
            out[18] = UInt8(ascii: "-")
            put(bytes.8, at: 19); put(bytes.9, at: 21)
            out[23] = UInt8(ascii: "-")
            put(bytes.10, at: 24); put(bytes.11, at: 26); put(bytes.12, at: 28)
            put(bytes.13, at: 30); put(bytes.14, at: 32); put(bytes.15, at: 34)
            return try body(UnsafeBufferPointer(start: out, count: 36))
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ value &- 10
    }

    /// Parses the canonical 36-character text form (either letter case) from UTF-8 bytes,
    /// without building a `String` first. Returns nil for anything else.
    public init?(canonicalUTF8 text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &bytes) { raw -> Bool in
            var input = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard text[input] == UInt8(ascii: "-") else { return false }
                    input += 1
                }
                guard let high = UUID.hexValue(text[input]), let low = UUID.hexValue(text[input + 1]) else { return false }
                raw[index] = high << 4 | low
                input += 2
            }
            return true
        }
        guard ok else { return nil }
        self.init(uuid: bytes)
    }

    @inline(__always)
    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
