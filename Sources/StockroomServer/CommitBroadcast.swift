import FoundationEssentials
import StockroomStore
import Synchronization

/// The server's one ear on the database: a single observation of the history's last position
/// and the open conflicts' count (``StoreObservation``, woken by the commit itself: inotify on
/// a file, `LISTEN` on PostgreSQL) whose every change wakes every event stream waiting on it. One watch and one
/// connection however many streams are open, and no stream wakes while nothing is committed.
///
/// A stream takes a ``generation`` before it reads, and after a read that found nothing waits
/// for a later one (``waitForCommit(after:)``): a commit after its read always makes one, so
/// none is missed, whatever the order of the stream's read and the observation's.
final class CommitBroadcast: Sendable {
    private struct State {
        var generation = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter = 0
        var started = false
        var stopped = false
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let location: DatabaseLocation
    private let busyTimeoutMilliseconds: Int32

    init(location: DatabaseLocation, busyTimeoutMilliseconds: Int32, stopping: StopFlag) {
        self.location = location
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        stopping.whenStopped { [weak self] in self?.stop() }
    }

    /// Counts the changes seen so far: take it before reading.
    var generation: Int {
        startIfNeeded()
        return state.withLock { $0.generation }
    }

    /// Waits until a change after `generation` is seen: true then, false when the server stops
    /// or the task is cancelled.
    func waitForCommit(after generation: Int) async -> Bool {
        startIfNeeded()
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    // Cancelled before this registration: the cancellation handler ran and
                    // found nothing to resume, so answer now rather than wait for a commit.
                    if state.stopped || Task.isCancelled { return false }
                    if state.generation > generation { return true }
                    state.waiters[id] = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
    }

    /// Starts the observation when the first stream asks (a server nobody follows watches nothing).
    private func startIfNeeded() {
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard start else { return }
        let location = self.location, timeout = busyTimeoutMilliseconds
        let task = Task { [weak self] in
            while !Task.isCancelled {
                // The open conflicts too: a sync opens and closes them without always writing
                // an item (a set whose every field was overtaken, a resolution keeping the
                // hub's value), and the list page shows their count live.
                let observation = StoreObservation(location: location, busyTimeout: .milliseconds(timeout),
                                                   marks: { store in [Int64(try store.drafts.conflictCount())] }) { store in
                    [try store.items.lastEventPosition(), Int64(try store.drafts.conflictCount())]
                }
                do {
                    for try await _ in observation {
                        guard let self, !self.publish() else { return }
                    }
                    return // cancelled: the server stops
                } catch {
                    // The history went from under the server (a restore, the file replaced or
                    // deleted): the streams read again and find what they find, and the
                    // observation starts over on what is there now, a second later (an error
                    // that stays, such as a deleted file, must not spin).
                    guard let self, !self.publish() else { return }
                    // A server that could not be reached (PostgreSQL restarting while the
                    // observation connected) is tried again as soon as the pool would.
                    let pause = StoreFailure.meansUnreachable(error) ? StorePool.longestReconnectionPause : CommitBroadcast.restartPause
                    try? await Task.sleep(for: pause)
                }
            }
        }
        state.withLock { $0.task = task }
    }

    /// How long the observation waits before starting over after its history went away.
    static let restartPause: Duration = .seconds(1)

    /// Wakes every waiter with a new generation; true when stopped.
    private func publish() -> Bool {
        let (waiters, stopped) = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.stopped)
        }
        for waiter in waiters { waiter.resume(returning: true) }
        return stopped
    }

    private func stop() {
        let (waiters, task) = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.task)
        }
        task?.cancel()
        for waiter in waiters { waiter.resume(returning: false) }
    }
}

extension StoreFailure {
    /// Whether `error` says the database could not be reached (or stayed locked): a reason to
    /// try again soon, which a request answers with `503` and `Retry-After`.
    static func meansUnreachable(_ error: any Error) -> Bool {
        of(error, secondsWaited: { "" })?.kind == .busy
    }
}
