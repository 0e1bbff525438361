import Glibc
import Synchronization

/// A one-way "stop" that a thread blocked in `poll(2)` wakes up for: a pipe, whose read end
/// is readable once ``stop()`` was called and from then on (nothing ever reads it). Any thread
/// (a signal handler too: `write(2)` is async-signal-safe) may stop it; the blocked waiter
/// includes `descriptor` in its poll set.
public final class StopSignal: Sendable {
    /// The pipe's read end; readable once stopped.
    let descriptor: Int32
    private let writeEnd: Int32
    private let stopped = Atomic<Bool>(false)

    /// A signal not yet stopped.
    public init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe failed: \(errno)")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Stops whoever waits on this signal, now and later.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// True once ``stop()`` was called.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }
}

/// How a waiter learns that the database may have a new commit: one per engine
/// (Engines/SQLite/FileCommitWatch.swift, Engines/PostgreSQL/NotificationCommitWatch.swift).
///
/// A watch is created before the first read of the history, so a commit between that read and
/// the first wait still wakes the waiter: nothing is lost between "read" and "wait".
protocol CommitWatch: AnyObject {
    /// Blocks until `confirmed` returns true (a commit the caller has not seen is visible), or
    /// `stop` is stopped (returns false). Wakes only when the engine says something may have
    /// been committed, and calls `confirmed` then; never on a timer while nothing happens
    /// (apart from a documented fallback).
    ///
    /// - Throws: ``ObservationError`` when the database went away under the watch, or what
    ///   `confirmed` throws.
    func wait(stop: StopSignal, until confirmed: () throws -> Bool) throws -> Bool
    /// After `error` was thrown by a read or a wait: reconnects and returns true when the
    /// error is a lost connection the engine recovers from (PostgreSQL, with bounded back-off),
    /// false when `stop` was stopped meanwhile; otherwise rethrows `error`.
    func recover(from error: any Error, stop: StopSignal) throws -> Bool
}

/// `poll(2)` on `descriptors` (each for reading), retried on EINTR; the indexes of the ready
/// ones, empty on timeout. A negative `timeoutMilliseconds` waits without limit.
func pollReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> [Int] {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while true {
        let result = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return [] }
        return fds.indices.filter { fds[$0].revents != 0 }
    }
}
