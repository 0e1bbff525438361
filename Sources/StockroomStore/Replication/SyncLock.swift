import FoundationEssentials
import Glibc
import Synchronization
import TextFormats

/// One sync of a replica at a time, across processes and within one: an exclusive `flock` on
/// the replica file, and a mark in this process, waited for up to the busy timeout.
///
/// SQLite locks the file with `fcntl`, which on Linux is independent of `flock`. But closing
/// any descriptor of the file drops the process's `fcntl` locks, SQLite's among them, so the
/// descriptor this lock opens on a replica is never closed: it is kept, one per replica path,
/// for the life of the process, and unlocked (not closed) when a sync ends. A second sync in
/// the same process would share that descriptor, whose `flock` it already holds, so the
/// process's own mark keeps it out.
struct SyncLock: ~Copyable {
    private let path: String
    private let descriptor: Int32

    /// Descriptors kept open per replica path, and the paths a sync in this process holds.
    private static let state = Mutex<(descriptors: [String: Int32], held: Set<String>)>(([:], []))

    /// Takes the lock, or throws ``SyncError/syncRunning(path:seconds:)`` once
    /// `busyTimeoutMilliseconds` passed.
    init(path: String, busyTimeoutMilliseconds: Int32) throws {
        let key = DurableFile.resolvedPath(path)
        let started = ContinuousClock.now
        let deadline = started.advanced(by: .milliseconds(Int64(busyTimeoutMilliseconds)))
        var pause = 1
        func waitOrGiveUp() throws {
            guard ContinuousClock.now < deadline else {
                let waited = started.duration(to: .now).components
                let seconds = Double(waited.seconds) + Double(waited.attoseconds) * 1e-18
                throw SyncError.syncRunning(path: path, seconds: fixedPointText(seconds, decimals: 1))
            }
            // flock has no timed wait: back off, up to 50 ms between attempts.
            usleep(useconds_t(pause * 1_000))
            pause = min(pause * 2, 50)
        }
        // This process first: one sync of a path at a time.
        var descriptor: Int32 = -1
        while true {
            let taken = try Self.state.withLock { state -> Int32? in
                guard !state.held.contains(key) else { return nil }
                if let kept = state.descriptors[key] {
                    state.held.insert(key)
                    return kept
                }
                let opened = open(path, O_RDONLY | O_CLOEXEC)
                guard opened >= 0 else {
                    throw Failure.Message(code: .ioError, description: "cannot open \(path) to lock it for the sync: \(String(cString: strerror(errno)))")
                }
                state.descriptors[key] = opened
                state.held.insert(key)
                return opened
            }
            if let taken { descriptor = taken; break }
            try waitOrGiveUp()
        }
        // Then the other processes.
        do {
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    throw Failure.Message(code: .ioError, description: "cannot lock \(path) for the sync: \(String(cString: strerror(errno)))")
                }
                try waitOrGiveUp()
            }
        } catch {
            _ = Self.state.withLock { $0.held.remove(key) }
            throw error
        }
        self.path = key
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        let key = path
        _ = Self.state.withLock { $0.held.remove(key) }
    }
}
