/// Reads a row's columns in order from any engine's row (``ColumnSource``), the counterpart of
/// ``RowBinder``.
struct RowReader<Source: ColumnSource> {
    let statement: Source
    /// The zero-based column the next read takes.
    private(set) var index: Int

    @inline(__always)
    init(_ statement: Source, at index: Int = 0) {
        self.statement = statement
        self.index = index
    }

    /// Takes the next column and returns its position.
    @inline(__always) mutating func next() -> Int {
        defer { index += 1 }
        return index
    }

    /// Skips `count` columns.
    @inline(__always) mutating func skip(_ count: Int) { index += count }

    /// True when the next `count` columns, from the current one, are all NULL; takes nothing.
    @inline(__always) func areNull(_ count: Int) -> Bool {
        for offset in 0..<count where !statement.isNull(at: index + offset) { return false }
        return true
    }
}
