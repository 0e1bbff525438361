import Dispatch
import Synchronization

/// Runs a blocking producer (a ``HistoryFollower``'s `next`, a query after each commit) on
/// a dedicated thread and hands its values to async callers one request at a time: the thread
/// produces a value only when one is asked for, so a slow consumer holds back the reads
/// instead of piling values up (a burst of commits is read as one value, one page).
///
/// The producer is made and used on the thread only (a store is not `Sendable`). ``end()``
/// stops it and lets the thread exit, closing the store there.
final class BlockingProducer<Element: Sendable>: Sendable {
    typealias Produce = () throws -> Element?

    private struct State {
        var waiting: [CheckedContinuation<Element?, any Error>] = []
        var ended = false
    }

    let stop: StopSignal
    private let state = Mutex(State())
    private let requested = DispatchSemaphore(value: 0)

    /// Starts the thread; `make` runs on it first (opening the store and the watch), and its
    /// error is the first request's.
    init(name: String, stop: StopSignal, make: @escaping @Sendable (StopSignal) throws -> Produce) {
        self.stop = stop
        DedicatedThread.start(name: name) { [self] in run(make) }
    }

    private func run(_ make: @Sendable (StopSignal) throws -> Produce) {
        let produce = Result { try make(stop) }
        while true {
            requested.wait()
            let next = state.withLock { state -> (CheckedContinuation<Element?, any Error>?, Bool) in
                (state.waiting.isEmpty ? nil : state.waiting.removeFirst(), state.ended)
            }
            guard let continuation = next.0 else {
                if next.1 { return }
                continue
            }
            guard !stop.isStopped else { continuation.resume(returning: nil); continue }
            continuation.resume(with: Result { try produce.get()() })
        }
    }

    /// The next value, produced on the thread; nil once stopped. Cancelling the calling task
    /// stops the producer (a waiting one returns at once).
    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { $0.waiting.append(continuation) }
                requested.signal()
            }
        } onCancel: {
            stop.stop()
        }
    }

    /// Stops the producer and lets the thread end once it is idle.
    func end() {
        stop.stop()
        state.withLock { $0.ended = true }
        requested.signal()
    }
}

/// Ends a ``BlockingProducer`` when the iterator holding it is dropped.
final class ProducerLifetime<Element: Sendable>: Sendable {
    let producer: BlockingProducer<Element>

    init(_ producer: BlockingProducer<Element>) { self.producer = producer }

    deinit { producer.end() }
}
