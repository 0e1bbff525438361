import TextFormats

/// The rules of an item's name, in one place: what it may hold, when it counts as blank, and
/// how it is shown where a raw character could do harm.
public enum ItemName {
    /// A character that shows no mark: Unicode white space (including no-break spaces such as
    /// U+00A0, U+2007, U+202F) or a default-ignorable code point (zero-width space, joiners,
    /// U+2060 word joiner, U+FEFF, soft hyphen, variation selectors, Hangul fillers).
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII first, exactly: of it only space and U+0009-U+000D are white space, and none is
        // default-ignorable. The Unicode property lookup costs ~2,000 instructions a name,
        // which `check` pays for every item.
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
    }

    /// True when `name` shows nothing: empty, or only characters that leave no mark.
    public static func isBlank(_ name: String) -> Bool {
        name.unicodeScalars.allSatisfy(isInvisible)
    }

    /// The first rule `name` breaks besides being blank (which a draft may be while edited),
    /// or nil.
    public static func problem(in name: String) -> InventoryError? {
        for (offset, scalar) in name.unicodeScalars.enumerated() where ControlCharacters.contains(scalar) {
            return .controlCharacterInName(scalar.value, position: offset + 1)
        }
        return nil
    }

    /// Throws the first rule `name` breaks besides being blank.
    public static func validate(_ name: String) throws {
        if let problem = problem(in: name) { throw problem }
    }

    /// `U+001B`.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
