import CSQLite
import FoundationEssentials
import Glibc

/// A budget for the time SQLite spends running statements on one connection; when it runs out,
/// the running statement fails with `SQLITE_INTERRUPT` (``SQLiteError/isInterrupted``).
///
/// Only time spent inside ``step(_:)`` counts. Time the caller spends between rows (writing
/// them to a pipe that a pager reads slowly, say) does not, so a query is stopped for what it
/// costs the database, never for how fast its output is consumed.
///
/// It works through SQLite's progress handler, which SQLite calls on the connection's own
/// thread every few thousand virtual-machine instructions, so it needs no timer thread. A
/// connection has one progress handler: while a limit is alive it owns that slot, and releasing
/// the limit removes the handler.
public final class ExecutionTimeLimit {
    /// The budget, in seconds.
    public let seconds: Double
    private let database: Database
    private let budget: UInt64
    private var spent: UInt64 = 0
    private var runningSince: UInt64?

    /// Virtual-machine instructions between two looks at the clock: often enough to stop within
    /// milliseconds, rarely enough that reading the clock costs nothing measurable.
    private static let instructionsPerCheck: Int32 = 4_000

    /// Installs a limit of `seconds` on `database`'s statements run through ``step(_:)``.
    public init(database: Database, seconds: Double) {
        self.database = database
        self.seconds = seconds
        self.budget = UInt64(max(0, seconds) * 1_000_000_000)
        database.progressHandlerTaken = true
        sqlite3_progress_handler(database.handle, Self.instructionsPerCheck, { context in
            guard let context else { return 0 }
            let limit = Unmanaged<ExecutionTimeLimit>.fromOpaque(context).takeUnretainedValue()
            return limit.isExhausted ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        sqlite3_progress_handler(database.handle, 0, nil, nil)
        database.progressHandlerTaken = false
    }

    /// Advances `statement` to its next row, charging the time it takes to the budget.
    ///
    /// - Throws: ``SQLiteError`` with `SQLITE_INTERRUPT` once the budget is spent.
    @discardableResult
    public func step(_ statement: Statement) throws -> Bool {
        let start = Self.now()
        runningSince = start
        defer {
            spent += Self.now() - start
            runningSince = nil
        }
        return try statement.step()
    }

    /// True once the time spent, including the step now running, exceeds the budget.
    public var isExhausted: Bool {
        guard let runningSince else { return spent > budget }
        return spent + (Self.now() - runningSince) > budget
    }

    private static func now() -> UInt64 {
        // CLOCK_MONOTONIC, as DispatchTime's uptime reads it, without linking Dispatch.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
