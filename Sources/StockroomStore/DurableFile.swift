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

    /// Creates an empty file beside `path`, readable and writable by its owner only unless
    /// `mode` says otherwise (SQLite keeps the mode of a file it opens), after removing what
    /// killed runs for `path` left. Its name is ``temporaryPrefix(for:)`` + `infix` + a random tag.
    ///
    /// The file stays locked (`flock`) while the returned ``TemporaryFile`` lives, so a later
    /// run tells a temporary file still being written from the litter of a process that was
    /// killed (the kernel drops the lock of a dead process).
    ///
    /// The lock protocol, shared with ``removeStaleTemporaries(of:)``: a remover unlinks a name
    /// only while it holds that file's lock itself; a creator, once it holds its lock, checks
    /// that its name still leads to its file, and starts again under a new name when a remover
    /// took the file in the instant between `open` and `flock`.
    ///
    /// Why not `O_TMPFILE`, which leaves nothing at all: SQLite needs a name to open. Given
    /// `/proc/self/fd/N` it resolves the link to `DIR/#INODE (deleted)` and creates a new file
    /// under that name; and a database whose name is unlinked while open refuses writes
    /// (`SQLITE_READONLY_DBMOVED`).
    ///
    /// - Throws: ``BackupError/cannotCreate(_:reason:)`` when the folder is missing or
    ///   unwritable; ``BackupError/fileSystem(_:operation:reason:)`` when a stale file cannot
    ///   be removed.
    static func createTemporary(besides path: String, infix: String = "", mode: mode_t = 0o600) throws -> TemporaryFile {
        try removeStaleTemporaries(of: path)
        for _ in 0..<100 {
            let temporary = temporaryPrefix(for: path) + infix + String(UUID().uuidString.prefix(8))
            let descriptor = open(temporary, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                if errno == EEXIST { continue }
                throw BackupError.cannotCreate(path, reason: lastErrorText())
            }
            // A remover holding the lock, or having unlinked the name before the lock was
            // taken, owns this file now: leave it to it and take another name.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isNamed(temporary, descriptor) else {
                close(descriptor)
                continue
            }
            return TemporaryFile(path: temporary, lock: descriptor)
        }
        throw BackupError.cannotCreate(path, reason: "could not create and lock a temporary file beside it")
    }

    /// Removes the temporary files of `path` (and their journals) that no live process holds.
    ///
    /// A file is removed only while this process holds its lock, and only when its name still
    /// leads to the file locked; a journal (`-journal`, `-wal`, `-shm`) goes with its file, or
    /// alone when its file is gone.
    static func removeStaleTemporaries(of path: String) throws {
        // Plain string and readdir(3) work: every write command comes here once, and URL plus
        // FileManager's listing cost 0.8M instructions, 2% of an `items add`.
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let prefix = "." + (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".tmp-"
        let matching = names(in: folder, startingWith: prefix)
        guard !matching.isEmpty else { return }
        let journalSuffixes = ["-journal", "-wal", "-shm"]
        func remove(_ file: String) throws {
            if unlink(file) != 0 && errno != ENOENT {
                throw BackupError.fileSystem(file, operation: "remove the stale temporary file", reason: lastErrorText())
            }
        }
        var owners = Set<String>()
        for name in matching {
            var owner = name
            for suffix in journalSuffixes where owner.hasSuffix(suffix) { owner.removeLast(suffix.count) }
            owners.insert(owner)
        }
        var target = stat()
        let targetExists = stat(path, &target) == 0
        for owner in owners.sorted() {
            let file = folder + "/" + owner
            // Never open a temporary file that is also linked elsewhere: a first create links
            // its finished file into place before removing the temporary name, and for that
            // moment the name is the live database. Closing a descriptor of it would drop this
            // process's POSIX locks on the database (SQLite's, a WAL reader's SHARED lock
            // among them), and another connection could then delete the WAL under it. A file
            // linked twice is never litter: its creator is about to remove the name.
            var info = stat()
            if lstat(file, &info) == 0,
               info.st_nlink > 1 || (targetExists && info.st_dev == target.st_dev && info.st_ino == target.st_ino) {
                continue
            }
            let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if descriptor >= 0 {
                defer { close(descriptor) }
                // Locked: a live process is writing it. Renamed or replaced since it was
                // opened: not the file this lock covers.
                guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isNamed(file, descriptor) else { continue }
                for suffix in journalSuffixes { try remove(file + suffix) }
                try remove(file)
            } else if errno == ENOENT {
                // The file is gone (its creator removes it first when it finishes): only
                // journals are left, and no live process writes a journal without its file.
                for suffix in journalSuffixes where matching.contains(owner + suffix) { try remove(file + suffix) }
            }
        }
    }

    /// The names in `folder` that start with `prefix`.
    private static func names(in folder: String, startingWith prefix: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let length = prefix.utf8.count
        var found: [String] = []
        while let entry = readdir(directory) {
            withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { name in
                    if strncmp(name, prefix, length) == 0 { found.append(String(cString: name)) }
                }
            }
        }
        return found
    }

    /// True when `path` leads to the file open as `descriptor` (not unlinked or replaced).
    private static func isNamed(_ path: String, _ descriptor: Int32) -> Bool {
        var named = stat(), held = stat()
        guard lstat(path, &named) == 0, fstat(descriptor, &held) == 0 else { return false }
        return named.st_dev == held.st_dev && named.st_ino == held.st_ino
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
    /// `path` made absolute with every symbolic link resolved, or `path` itself when it cannot
    /// be (it does not exist): the one spelling of a file that two paths to it share (a
    /// replica's registered place, the directory SQLite keeps a linked file's `-wal` in).
    static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

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
