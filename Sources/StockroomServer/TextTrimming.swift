/// The trimming `stockroom serve` does on header values, form fields and bodies, on Unicode
/// scalars as Foundation's `trimmingCharacters(in:)` did (that method lives in Foundation's full
/// module, which the `stockroom` binary does not link).
extension StringProtocol {
    /// Without leading and trailing spaces and tabs: Foundation's `CharacterSet.whitespaces`
    /// (general category Zs, and U+0009).
    func trimmingWhitespace() -> String {
        trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without leading and trailing white space and line breaks: Foundation's
    /// `CharacterSet.whitespacesAndNewlines` (general categories Z*, U+0009 to U+000D, U+0085).
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { scalar in
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return (0x09...0x0D).contains(scalar.value) || scalar.value == 0x85
            }
        }
    }

    /// Without leading and trailing scalars that are among `characters`.
    func trimming(_ characters: Set<Unicode.Scalar>) -> String {
        trimming { characters.contains($0) }
    }

    private func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }
}
