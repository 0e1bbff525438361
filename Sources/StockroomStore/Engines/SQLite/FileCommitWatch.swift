import FoundationEssentials
import Glibc

/// How a follower of a SQLite file learns of a commit by any process: the kernel tells.
///
/// inotify(7) watches the database's directory for writes to the database, its `-wal` and its
/// `-journal` (a directory watch, not one on the `-wal` file, because the WAL is created,
/// truncated by a checkpoint and deleted by the last connection to close: a watch on the file
/// itself would be lost with it). Other files of the directory wake the thread but are
/// ignored by name; `-shm` is never a reason (it is written through `mmap`, which inotify
/// does not report, and readers write it too).
///
/// inotify reports the write to the WAL, which comes before the commit is visible to another
/// connection: the writer syncs the WAL (`synchronous = FULL`) and only then updates the WAL
/// index in `-shm`, which inotify does not report. So after a wake the caller's check (the last
/// position) is repeated until it confirms: at once, then after 1, 2, 4, … ms, then every
/// ``longestConfirmationPause`` ms, for ``confirmationWindow`` after the last write. The sync
/// can take seconds on a busy disk; a window that closed after about a second missed such a
/// commit for good (nothing more is written), which hung a test of the example app in a loaded
/// CI run. A write that is never committed (rolled back after its frames were written) costs
/// the window's checks, about one a half-second, then the next write wakes the watch again.
///
/// Fallback, where inotify cannot be used (no inotify instance left, a filesystem that does
/// not report other machines' writes such as NFS or SMB, or `STOCKROOM_WATCH=poll` in the
/// environment): the check runs every ``fallbackIntervalMilliseconds``.
final class FileCommitWatch: CommitWatch {
    /// How often the fallback checks, in milliseconds.
    static let fallbackIntervalMilliseconds: Int32 = 1_000
    /// The longest pause between two checks after a wake, in milliseconds (the pauses double
    /// from 1 ms up to it, then stay).
    static let longestConfirmationPause: Int32 = 512
    /// How long after the last write the checks go on: longer than any sync of a healthy disk,
    /// however busy.
    static let confirmationWindow: Duration = .seconds(30)

    private let path: String
    /// The inotify instance, or nil in the fallback.
    private let inotify: Int32?
    private let names: [String]
    private let fileName: String
    /// The database file's device and inode when the watch began: another file at the path
    /// is a replacement.
    private let identity: (device: UInt64, inode: UInt64)?

    private init(path: String, inotify: Int32?) {
        self.path = path
        self.inotify = inotify
        fileName = FileCommitWatch.split(DurableFile.resolvedPath(path)).name
        names = [fileName, fileName + "-wal", fileName + "-journal"]
        identity = FileCommitWatch.identity(of: path)
    }

    deinit {
        if let inotify { close(inotify) }
    }

    /// A watch on the database at `path`: inotify when it can be used, else the fallback.
    static func make(path: String) throws -> FileCommitWatch {
        if usesFallback(for: path) { return FileCommitWatch(path: path, inotify: nil) }
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return FileCommitWatch(path: path, inotify: nil) }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_DELETE_SELF | IN_MOVE_SELF)
        // SQLite keeps the `-wal` beside the file a link points to: that is the directory to watch.
        guard inotify_add_watch(descriptor, split(DurableFile.resolvedPath(path)).directory, mask) >= 0 else {
            close(descriptor)
            return FileCommitWatch(path: path, inotify: nil)
        }
        return FileCommitWatch(path: path, inotify: descriptor)
    }

    /// True when the fallback is asked for, or the file is on a filesystem whose changes by
    /// other machines inotify never reports (/proc/self/mountinfo names its type).
    static func usesFallback(for path: String) -> Bool {
        if let asked = getenv("STOCKROOM_WATCH"), String(cString: asked) == "poll" { return true }
        guard let type = MountTable.filesystemType(of: path) else { return false }
        return MountTable.isNetworkFilesystem(type)
    }

    func wait(stop: StopSignal, until confirmed: () throws -> Bool) throws -> Bool {
        guard let inotify else {
            while true {
                if try confirmed() { return true }
                try checkIdentity()
                if !pollReadable([stop.descriptor], timeoutMilliseconds: FileCommitWatch.fallbackIntervalMilliseconds).isEmpty {
                    return false
                }
            }
        }
        // -1: wait for the kernel; 0 and more: confirming a write, this long before checking again.
        var pause: Int32 = -1
        var lastWrite = ContinuousClock.now
        while true {
            let ready = pollReadable([stop.descriptor, inotify], timeoutMilliseconds: pause)
            if ready.contains(0) { return false }
            if ready.contains(1) {
                let (written, moved) = drainEvents(inotify)
                if moved { try checkIdentity() }
                if written || moved { pause = 0; lastWrite = .now }
            }
            guard pause >= 0 else { continue }
            if try confirmed() { return true }
            pause = min(pause == 0 ? 1 : pause * 2, FileCommitWatch.longestConfirmationPause)
            if lastWrite.duration(to: .now) > FileCommitWatch.confirmationWindow { pause = -1 }
        }
    }

    func recover(from error: any Error, stop: StopSignal) throws -> Bool { throw error }

    /// Reads every queued event: whether one of the database's files was written, and
    /// whether the database file (or the directory) was created, deleted or moved.
    private func drainEvents(_ inotify: Int32) -> (written: Bool, moved: Bool) {
        var written = false, moved = false
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, size)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (written, moved) }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                let mask = Int32(bitPattern: event.mask)
                if mask & Int32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { moved = true; continue }
                guard names.contains(name) else { continue }
                if name == fileName, mask & Int32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0 { moved = true }
                if mask & Int32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE) != 0 { written = true }
            }
        }
    }

    /// Throws when the file at the path is gone or is another file than the one followed.
    private func checkIdentity() throws {
        guard let identity else { return }
        guard let now = FileCommitWatch.identity(of: path) else { throw ObservationError.fileDeleted(path: path) }
        guard now == identity else { throw ObservationError.fileReplaced(path: path) }
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The directory (absolute or relative, "." when none) and the file name of `path`.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
