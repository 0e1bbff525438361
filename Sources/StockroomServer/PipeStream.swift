import FoundationEssentials
import Dispatch
import Glibc
import Hummingbird
import StockroomStore
import Synchronization

/// The read end of a pipe as an async sequence of chunks, read by a thread of its own, so that
/// a writer that only knows file descriptors (``StockroomStore/ItemExport``) streams into a
/// response without holding the output in memory or blocking the async executor.
///
/// Back-pressure: the thread reads the next chunk only after the consumer has taken the
/// previous ones (at most `window` ahead), so a slow client slows the export instead of
/// filling memory. When the consumer stops early (the client went away), the read end is
/// closed, the writer's next write fails with EPIPE (SIGPIPE is ignored by `serve`), and
/// the export's transaction ends.
enum PipeStream {
    /// The export writes 256 KiB at a time (ByteOutput); a pipe of that size and chunks of it
    /// take each write in one read, where the default 64 KiB pipe made four hand-offs of it.
    static let chunkSize = 256 * 1024

    /// `F_SETPIPE_SZ` (Linux's fcntl.h, under `_GNU_SOURCE`, which Swift's Glibc module does
    /// not define).
    private static let setPipeSize: Int32 = 1031

    /// A new pipe: (read end, write end), both close-on-exec.
    static func make() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw Problem(.internalServerError, "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // Best effort: a system whose pipe limit is lower keeps its default size.
        _ = fcntl(descriptors[1], setPipeSize, Int32(chunkSize))
        return (descriptors[0], descriptors[1])
    }

    /// The chunks read from `descriptor`, which is closed when reading ends either way.
    static func chunks(reading descriptor: Int32, window: Int = 4) -> (stream: AsyncStream<ByteBuffer>, taken: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        // Made at 0 and raised to `window` by signals, not made at `window`: libdispatch traps
        // (SIGILL, "Semaphore object deallocated while in use") when a semaphore is freed with
        // a value below the one it was made with, and a consumer that stops early (a client
        // gone mid-download) leaves up to `window` credits unspent. Made at 0, it may be freed
        // at any value.
        let credit = DispatchSemaphore(value: 0)
        for _ in 0..<window { credit.signal() }
        let state = StopFlag()
        continuation.onTermination = { _ in
            state.stop()
            credit.signal()
        }
        DedicatedThread.start(name: "stockroom-stream") {
            defer {
                close(descriptor)
                continuation.finish()
            }
            var buffer = [UInt8](repeating: 0, count: chunkSize)
            while true {
                credit.wait()
                if state.isStopped { return }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
                if count < 0 && errno == EINTR { credit.signal(); continue }
                guard count > 0 else { return }
                continuation.yield(ByteBuffer(bytes: buffer[0..<count]))
            }
        }
        return (stream, { credit.signal() })
    }
}

/// Set once, read by other threads: a stream's consumer went away, or the server is stopping
/// (long-lived event streams end so that the graceful stop need not wait for them).
public final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    private let actions = Mutex<[@Sendable () -> Void]>([])
    /// A flag not yet set.
    public init() {}
    /// Sets the flag, and runs the actions given to ``whenStopped(_:)``.
    public func stop() {
        guard !value.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for action in actions.withLock({ actions in defer { actions = [] }; return actions }) { action() }
    }
    /// Whether the flag was set.
    public var isStopped: Bool { value.load(ordering: .acquiring) }
    /// Runs `action` when the flag is set (at once when it already is): what wakes a stream
    /// waiting for a commit, so that a stop need not wait for one.
    func whenStopped(_ action: @escaping @Sendable () -> Void) {
        let runNow = actions.withLock { actions in
            if isStopped { return true }
            actions.append(action)
            return false
        }
        if runNow { action() }
    }
}
