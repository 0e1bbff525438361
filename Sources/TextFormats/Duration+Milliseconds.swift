extension Duration {
    /// The duration in whole milliseconds, rounded down and clamped to what SQLite's busy
    /// timeout and the engines' lock waits take (`Int32`): the public API speaks `Duration`,
    /// the engines milliseconds. Here, in the one module that SQLiteCore, PostgresCore and
    /// StockroomStore all build on, so that each converts at its boundary the same way; the
    /// figure is also what `SET lock_timeout` and `SET statement_timeout` write as text.
    package var clampedMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return seconds < 0 ? 0 : .max }
        return Int32(clamping: max(0, milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}
