import FoundationEssentials
import Glibc
import TextFormats

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
                out[position] = HexDigits.digit(byte >> 4)
                out[position + 1] = HexDigits.digit(byte & 0x0F)
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

    /// Parses the canonical 36-character text form (either letter case) from UTF-8 bytes,
    /// without building a `String` first. Returns nil for anything else.
    ///
    /// Every read of an item parses its id, so this is written for speed: the 32 digits are
    /// looked up in a table at constant positions into two words, a bad byte is noted rather
    /// than branched on, and the words are the UUID's bytes as they are laid out. 288
    /// instructions an id, where the byte-by-byte loop it replaced and `UUID(uuid:)` took 573,
    /// 12% of W2 (BENCHMARKS.md, "Then the id itself").
    public init?(canonicalUTF8 text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36, let base = text.baseAddress,
              base[8] == UInt8(ascii: "-"), base[13] == UInt8(ascii: "-"),
              base[18] == UInt8(ascii: "-"), base[23] == UInt8(ascii: "-") else { return nil }
        // Each byte's value by table (0xFF for a byte that is not a digit, which leaves a high
        // bit in `bad`): four instructions a digit, where comparing ranges took a dozen.
        var high: UInt64 = 0, low: UInt64 = 0, bad: UInt8 = 0
        HexDigits.values.withUnsafeBufferPointer { table in
            @inline(__always) func read(_ positions: Range<Int>, into word: inout UInt64) {
                for position in positions {
                    let value = table[Int(base[position])]
                    bad |= value
                    word = word << 4 | UInt64(value & 15)
                }
            }
            read(0..<8, into: &high); read(9..<13, into: &high); read(14..<18, into: &high)
            read(19..<23, into: &low); read(24..<36, into: &low)
        }
        guard bad & 0xF0 == 0 else { return nil }
        // A UUID is its 16 bytes in order: each word's bytes, most significant first.
        self = unsafeBitCast((high.bigEndian, low.bigEndian), to: UUID.self)
    }
}
