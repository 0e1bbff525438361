/// JSON text written by hand, for output whose keys keep a stable, documented order and that
/// needs no encoder on a hot path: string literals, arrays and objects of already-encoded values.
///
/// Strings are escaped per RFC 8259, and DEL and C1 controls too (``ControlCharacters``), so
/// JSON output never carries a raw control character.
public enum JSONText {
    /// Appends `value` as a JSON string literal.
    public static func appendString(_ value: String, to text: inout String) {
        text += "\""
        // Almost every name and id needs no escape: append it whole (a scalar-by-scalar append
        // cost ~40k instructions per listed item, 3% of a 20-item `items list` process).
        if !value.utf8.contains(where: needsEscape) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where ControlCharacters.contains(scalar):
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// `value` as a JSON string literal.
    public static func string(_ value: String) -> String {
        var text = ""
        appendString(value, to: &text)
        return text
    }

    /// `value` as a JSON string literal, or `null`.
    public static func string(_ value: String?) -> String {
        value.map(string) ?? "null"
    }

    /// A JSON array of already-encoded values.
    public static func array(_ values: [String]) -> String {
        "[" + values.joined(separator: ",") + "]"
    }

    /// A JSON object of already-encoded values, members in the order given; keys are escaped.
    public static func object(_ members: KeyValuePairs<String, String>) -> String {
        object(members.map { ($0.key, $0.value) })
    }

    /// A JSON object of already-encoded values, members in the order given; keys are escaped.
    public static func object(_ members: [(key: String, value: String)]) -> String {
        var text = "{"
        for (index, member) in members.enumerated() {
            if index > 0 { text += "," }
            appendString(member.key, to: &text)
            text += ":" + member.value
        }
        return text + "}"
    }

    /// Writes the UTF-8 `text` as a JSON string literal to `output`, byte by byte, escaping as
    /// ``appendString(_:to:)`` does (C1 controls are UTF-8 `C2 80`–`C2 9F`): for writers that
    /// stream bytes straight from a database row. Runs of plain bytes are written in one piece.
    @inlinable
    public static func writeString<Output: ByteSink>(_ text: UnsafeBufferPointer<UInt8>, to output: Output) throws {
        try output.append(UInt8(ascii: "\""))
        var plainStart = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            let isC1 = byte == 0xC2 && index + 1 < text.count && (0x80...0x9F).contains(text[index + 1])
            guard byte < 0x20 || byte == 0x7F || isC1 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            try output.append(UnsafeBufferPointer(rebasing: text[plainStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): try output.append("\\\"")
            case UInt8(ascii: "\\"): try output.append("\\\\")
            case 0x0A: try output.append("\\n")
            case 0x0D: try output.append("\\r")
            case 0x09: try output.append("\\t")
            default:
                let scalar = isC1 ? text[index + 1] : byte
                try output.append("\\u00")
                try output.append(HexDigits.digit(scalar >> 4))
                try output.append(HexDigits.digit(scalar & 0x0F))
            }
            index += isC1 ? 2 : 1
            plainStart = index
        }
        try output.append(UnsafeBufferPointer(rebasing: text[plainStart...]))
        try output.append(UInt8(ascii: "\""))
    }

    /// True for a UTF-8 byte that may start an escape: C0 controls, DEL, `"`, `\\`, and 0xC2, the
    /// lead byte of the C1 controls (a false positive only sends the string down the slow path).
    @usableFromInline
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}

/// Where ``JSONText/writeString(_:to:)`` puts its bytes: a buffered writer.
public protocol ByteSink {
    /// Appends one byte.
    func append(_ byte: UInt8) throws
    /// Appends bytes.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) throws
    /// Appends a literal's UTF-8 bytes.
    func append(_ text: StaticString) throws
}
