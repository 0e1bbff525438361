extension StringProtocol {
    /// The text without leading and trailing characters that satisfy `isTrimmed`: Foundation's
    /// `trimmingCharacters(in:)` without linking Foundation (BENCHMARKS.md, W6). One
    /// implementation for the PostgreSQL messages, the migration scripts and the wizard's answers.
    public func trimmed(_ isTrimmed: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
