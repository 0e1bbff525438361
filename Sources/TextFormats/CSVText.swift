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
    /// every name, and one test per byte keeps the common byte (printable, not `,` or `"`) cheap.
    @inlinable @inline(__always)
    public static func needsQuotes(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var next = field.baseAddress else { return false }
        let end = next + field.count
        while next < end {
            let byte = next.pointee
            next += 1
            if byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "\"") && byte != 0xC2 { continue }
            guard byte == 0xC2 else { return true }
            if next < end && next.pointee &- 0x80 < 0x20 { return true }
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
