/// `application/x-www-form-urlencoded` text (a query string or a form's body) as name-value
/// pairs: `+` is a space, `%XX` a byte; the first value of a name wins.
struct Form: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ text: String?) {
        guard let text else { return }
        for part in text.split(separator: "&") where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((Form.decode(pieces[0]), pieces.count > 1 ? Form.decode(pieces[1]) : ""))
        }
    }

    subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The value of `name` unless it is missing or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = self[name], !value.isEmpty else { return nil }
        return value
    }

    /// `text` decoded; the text as it came (with `+` as a space) when an escape is bad.
    private static func decode(_ text: Substring) -> String {
        let spaced = String(text).replacing("+", with: " ")
        return PercentEncoding.decode(spaced) ?? spaced
    }

    /// `text` encoded for a query or form value.
    static func encode(_ text: String) -> String {
        PercentEncoding.encode(text)
    }
}
