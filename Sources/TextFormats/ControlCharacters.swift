/// Characters a terminal acts on rather than shows: C0 (U+0000–U+001F, tab and line breaks
/// included), DEL (U+007F) and C1 (U+0080–U+009F; U+009B is a one-character CSI). Every writer
/// here escapes or quotes them, so no output carries one raw.
public enum ControlCharacters {
    /// True for a C0, DEL or C1 control character.
    @inlinable
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` safe to print on a terminal: each control character written as its JSON escape
    /// (`\n`, `\t`, `\u001b`, `\u009b`), and then backslashes and double quotes escaped too, so
    /// the escaped form cannot be mistaken for text. Text without one is returned as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: contains) else { return text }
        return String(JSONText.string(text).dropFirst().dropLast())
    }
}
