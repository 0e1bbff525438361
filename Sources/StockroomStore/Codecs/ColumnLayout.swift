/// An ordered list of columns built from codecs and plain columns, from which statements take
/// their column list, placeholders and each group's first bind position.
struct ColumnLayout {
    /// The columns, in bind order.
    private(set) var names: [String] = []

    /// Appends `columns` and returns the zero-based bind position of the first.
    mutating func add(_ columns: [String]) -> Int {
        defer { names += columns }
        return names.count
    }

    /// Appends one column and returns its bind position.
    mutating func add(_ column: String) -> Int { add([column]) }

    /// A layout of just `columns`.
    static func of(_ columns: [String]) -> ColumnLayout {
        var layout = ColumnLayout()
        _ = layout.add(columns)
        return layout
    }

    /// `a, b, c`.
    var list: String { names.joined(separator: ", ") }
    /// `?1, ?2, ?3`.
    var placeholders: String { names.indices.map { "?\($0 + 1)" }.joined(separator: ", ") }
    /// `a = ?1, b = ?2`, for an UPDATE.
    var assignments: String { assignments(skipping: nil) }

    /// `b = ?2, c = ?3`: the assignments of every column but `skipped` (the key of an UPDATE).
    func assignments(skipping skipped: String?) -> String {
        names.indices.filter { names[$0] != skipped }.map { "\(names[$0]) = ?\($0 + 1)" }.joined(separator: ", ")
    }
}
