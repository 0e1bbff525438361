/// CSV per RFC 4180: records end in CRLF; a field is quoted when it holds a comma, a double
/// quote or any control character (line breaks included, ``ControlCharacters``), its quotes
/// doubled. The rule is written once, over UTF-8 bytes (``writeField(_:prefix:to:)``); the
/// string form is that writer's output, so `items list --format csv` and `export` agree.
public enum CSVText {
    /// `field` as it appears in a record.
    public static func field(_ field: String) -> String {
        var text = field
        return text.withUTF8 { bytes in
            // Almost every field needs no quotes: returned as it is, not copied.
            guard needsQuotes(bytes) else { return field }
            let sink = CollectedBytes()
            sink.bytes.reserveCapacity(bytes.count + 2)
            // Collecting in memory cannot fail.
            try! writeField(bytes, to: sink)
            return String(decoding: sink.bytes, as: UTF8.self)
        }
    }

    /// One record with its CRLF line end.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// True when the UTF-8 `field` must be quoted: it holds a comma, a double quote, a C0
    /// control, DEL, or a C1 control (UTF-8 `C2 80`–`C2 9F`). Inlined: the export asks it of
    /// every name, and a printable ASCII byte, the common one, costs one range test and two
    /// comparisons.
    @inlinable @inline(__always)
    public static func needsQuotes(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var next = field.baseAddress else { return false }
        let end = next + field.count
        // Eight bytes at a time while all are printable ASCII other than `,` and `"` (a word
        // holding anything else is left to the byte loop below, which decides).
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while end - next >= 8 {
            let word = UnsafeRawPointer(next).loadUnaligned(as: UInt64.self)
            let belowSpace = (word &- 0x20 &* ones) & ~word & highs
            let del = word ^ (0x7F &* ones), comma = word ^ (0x2C &* ones), quote = word ^ (0x22 &* ones)
            let zeroByte = ((del &- ones) & ~del | (comma &- ones) & ~comma | (quote &- ones) & ~quote) & highs
            guard belowSpace | zeroByte | (word & highs) == 0 else { break }
            next += 8
        }
        while next < end {
            let byte = next.pointee
            next += 1
            if byte &- 0x20 < 0x5F {
                // Printable ASCII: only a comma or a quote.
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") { return true }
                continue
            }
            if byte < 0x80 { return true }  // C0 or DEL
            if byte == 0xC2 && next < end && next.pointee &- 0x80 < 0x20 { return true }  // C1
        }
        return false
    }

    /// Writes the UTF-8 `field` as it appears in a record, quoted when ``needsQuotes(_:)``
    /// says so (quotes doubled), runs without a quote in one piece. `prefix`, when given, is
    /// written as the field's first byte, inside the quotes: it must be a byte that needs no
    /// quoting itself (the export's formula guard, `'`).
    @inlinable @inline(__always)
    public static func writeField<Output: ByteSink>(_ field: UnsafeBufferPointer<UInt8>, prefix: UInt8? = nil,
                                                    to output: Output) throws {
        guard needsQuotes(field) else {
            if let prefix { try output.append(prefix) }
            try output.append(field)
            return
        }
        try output.append(UInt8(ascii: "\""))
        if let prefix { try output.append(prefix) }
        var runStart = 0
        for index in 0..<field.count where field[index] == UInt8(ascii: "\"") {
            // The run up to and including the quote, then the quote again.
            try output.append(UnsafeBufferPointer(rebasing: field[runStart...index]))
            try output.append(UInt8(ascii: "\""))
            runStart = index + 1
        }
        try output.append(UnsafeBufferPointer(rebasing: field[runStart...]))
        try output.append(UInt8(ascii: "\""))
    }
}

/// Bytes collected in memory, for the string form of a byte writer.
final class CollectedBytes: ByteSink {
    var bytes: [UInt8] = []
    func append(_ byte: UInt8) { bytes.append(byte) }
    func append(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    func append(_ text: StaticString) { append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
}
