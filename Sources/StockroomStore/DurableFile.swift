import FoundationEssentials
import Glibc

/// Writing a file so that its final name never holds a partial or unsynced copy: write beside
/// it under a temporary name, sync it, move it into place in one rename, then sync the folder
/// so the rename itself survives a power cut.
enum DurableFile {
    /// The prefix of every temporary name made for `path`: `.NAME.tmp-`. Callers that clean up
    /// after a killed run (the nightly script) remove `.NAME.tmp-*`.
    static func temporaryPrefix(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appending(path: "." + url.lastPathComponent + ".tmp-").path
    }

    /// Creates an empty file beside `path`, readable and writable by its owner only (SQLite
    /// keeps the mode of a file it opens), after removing what killed runs for `path` left.
    ///
    /// The file stays locked (`flock`) while the returned ``TemporaryFile`` lives, so a later
    /// run tells a temporary file still being written from the litter of a process that was
    /// killed (the kernel drops the lock of a dead process).
    ///
    /// Why not `O_TMPFILE`, which leaves nothing at all: SQLite needs a name to open. Given
    /// `/proc/self/fd/N` it resolves the link to `DIR/#INODE (deleted)` and creates a new file
    /// under that name; and a database whose name is unlinked while open refuses writes
    /// (`SQLITE_READONLY_DBMOVED`).
    ///
    /// - Throws: ``BackupError/cannotCreate(_:reason:)`` when the folder is missing or
    ///   unwritable; ``BackupError/fileSystem(_:operation:reason:)`` when a stale file cannot
    ///   be removed.
    static func createTemporary(besides path: String) throws -> TemporaryFile {
        try removeStaleTemporaries(of: path)
        let temporary = temporaryPrefix(for: path) + String(UUID().uuidString.prefix(8))
        let descriptor = open(temporary, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BackupError.cannotCreate(path, reason: lastErrorText()) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = lastErrorText()
            close(descriptor)
            unlink(temporary)
            throw BackupError.cannotCreate(path, reason: "cannot lock \(temporary): \(reason)")
        }
        return TemporaryFile(path: temporary, lock: descriptor)
    }

    /// Removes the temporary files of `path` (and their journals) that no live process holds.
    static func removeStaleTemporaries(of path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            var owner = name
            for suffix in ["-journal", "-wal", "-shm"] where owner.hasSuffix(suffix) { owner.removeLast(suffix.count) }
            let file = folder + "/" + name
            if isLocked(folder + "/" + owner) { continue }
            if unlink(file) != 0 && errno != ENOENT {
                throw BackupError.fileSystem(file, operation: "remove the stale temporary file", reason: lastErrorText())
            }
        }
    }

    /// True when a live process holds the `flock` of the file at `path`.
    private static func isLocked(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0
    }

    /// Checks, before any work, that `path` can be created: its folder exists and, unless
    /// `replacing`, nothing is there yet.
    static func checkCanCreate(_ path: String, replacing: Bool) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw BackupError.cannotCreate(path, reason: "folder \(folder) does not exist")
        }
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory { throw BackupError.cannotCreate(path, reason: "it is a folder") }
            if !replacing { throw BackupError.destinationExists(path) }
        }
    }

    /// Flushes the file's content to the disk.
    static func sync(_ path: String) throws {
        try withDescriptor(path, flags: O_RDONLY) { descriptor in
            if fsync(descriptor) != 0 { throw BackupError.fileSystem(path, operation: "sync", reason: lastErrorText()) }
        }
    }

    /// Flushes the folder holding `path`, so that a rename into it is durable.
    static func syncFolder(of path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try withDescriptor(folder, flags: O_RDONLY | O_DIRECTORY) { descriptor in
            if fsync(descriptor) != 0 { throw BackupError.fileSystem(folder, operation: "sync", reason: lastErrorText()) }
        }
    }

    /// Renames `temporary` to `path` atomically. Without `replacing`, a file that appeared at
    /// `path` meanwhile is never overwritten: the hard link fails instead.
    ///
    /// - Throws: ``BackupError/placedWithLitter(_:temporary:reason:)`` when `path` is in place
    ///   but the temporary name could not be removed after the hard link.
    static func moveIntoPlace(_ temporary: String, to path: String, replacing: Bool) throws {
        if replacing {
            guard rename(temporary, path) == 0 else {
                throw BackupError.fileSystem(path, operation: "rename into place", reason: lastErrorText())
            }
            return
        }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw BackupError.destinationExists(path) }
            throw BackupError.fileSystem(path, operation: "move into place", reason: lastErrorText())
        }
        guard unlink(temporary) == 0 else {
            throw BackupError.placedWithLitter(path, temporary: temporary, reason: lastErrorText())
        }
    }

    /// Removes a database file and the journal files SQLite may have left beside it.
    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// The size of the file in bytes.
    static func size(of path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw BackupError.fileSystem(path, operation: "stat", reason: lastErrorText()) }
        return Int(info.st_size)
    }

    /// True when both paths name one existing file (also through links or `..`).
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    private static func withDescriptor(_ path: String, flags: Int32, _ body: (Int32) throws -> Void) throws {
        let descriptor = open(path, flags | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupError.fileSystem(path, operation: "open", reason: lastErrorText()) }
        defer { close(descriptor) }
        try body(descriptor)
    }

    static func lastErrorText() -> String { String(cString: strerror(errno)) }
}

/// A temporary file made by ``DurableFile/createTemporary(besides:)``, locked while it lives.
final class TemporaryFile {
    /// Where the file is.
    let path: String
    private let lock: Int32

    init(path: String, lock: Int32) {
        self.path = path
        self.lock = lock
    }

    deinit {
        close(lock)
    }

    /// Removes the file and any journal SQLite left beside it, unless it was moved into place.
    func removeUnlessMoved() {
        DurableFile.removeDatabaseFiles(path)
    }
}
