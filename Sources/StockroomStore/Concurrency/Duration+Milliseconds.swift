extension Duration {
    /// The duration in whole milliseconds, rounded down and clamped to what SQLite's busy
    /// timeout and the engines' lock waits take (`Int32`): the public API speaks `Duration`,
    /// the engines milliseconds.
    package var clampedMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return seconds < 0 ? 0 : .max }
        return Int32(clamping: max(0, milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}
