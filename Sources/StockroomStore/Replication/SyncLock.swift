import FoundationEssentials
import Glibc

/// One sync of a replica at a time: an exclusive `flock` on the replica file, waited for up to
/// the busy timeout. SQLite locks the file with `fcntl`, which on Linux is independent of
/// `flock`; but closing any descriptor of the file drops the process's `fcntl` locks, so this
/// descriptor stays open until the process ends (``keepUntilExit()``), after SQLite's own.
struct SyncLock {
    private let descriptor: Int32

    /// Takes the lock, or throws ``Failure/Code/busy`` once `busyTimeoutMilliseconds` passed.
    init(path: String, busyTimeoutMilliseconds: Int32) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure.Message(code: .ioError, description: "cannot open \(path) to lock it for the sync: \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(busyTimeoutMilliseconds)))
        var pause = 1
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                throw SyncError.syncRunning(path: path, seconds: Failure.secondsWaited)
            }
            // Back off up to 50 ms between attempts: flock has no timed wait.
            usleep(useconds_t(pause * 1_000))
            pause = min(pause * 2, 50)
        }
    }

    /// Leaves the descriptor (and the lock) to the end of the process.
    func keepUntilExit() {}
}
