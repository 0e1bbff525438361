/// CSV per RFC 4180: records end in CRLF; a field is quoted when it holds a comma, a double
/// quote or any control character (line breaks included), its quotes doubled.
public enum CSVText {
    /// `field` as it appears in a record.
    public static func field(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || ControlCharacters.contains($0) }) else { return field }
        var quoted = "\""
        // Scalars, not Characters: a quote followed by a combining mark is one Character.
        for scalar in field.unicodeScalars {
            if scalar == "\"" { quoted.unicodeScalars.append("\"") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }

    /// One record with its CRLF line end.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}
