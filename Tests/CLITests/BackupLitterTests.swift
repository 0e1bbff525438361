import Foundation
import StockroomTestSupport
import Testing

/// A backup killed while it copies leaves nothing that the next backup does not remove, and a
/// backup never exits 0 with its temporary file left behind.
@Suite struct BackupLitterTests {
    let fixture = CLIDatabase()

    private func temporaryFiles(of destination: String) throws -> [String] {
        let name = URL(fileURLWithPath: destination).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
            .filter { $0.hasPrefix(".\(name).tmp-") }
    }

    @Test(.timeLimit(.minutes(2)))
    func aBackupKilledWhileCopyingLeavesNothingTheNextOneKeeps() throws {
        try fixture.addSampleContent()
        try fixture.addBulkItems(100_000)
        let destination = fixture.directory.path("copy.sqlite")
        let events = try FolderEvents(fixture.directory.url.path)

        let backup = try BackgroundProcess(Processes.stockroomPath, ["backup", destination],
                                           environment: ["STOCKROOM_DB": fixture.path])
        // Killed the moment its temporary file is first written: mid-copy.
        let written = events.waitForWrite { $0.hasPrefix(".copy.sqlite.tmp-") }
        kill(backup.processIdentifier, SIGKILL)
        let killed = backup.wait()
        #expect(written != nil)
        #expect(killed.status == 128 + SIGKILL, "\(killed)")
        #expect(try !temporaryFiles(of: destination).isEmpty, "the killed backup left its temporary file")
        #expect(!FileManager.default.fileExists(atPath: destination))

        let next = try fixture.stockroom("backup", destination)
        #expect(next.status == 0, "\(next)")
        #expect(try temporaryFiles(of: destination).isEmpty)
        #expect(try fixture.stockroom("check", "--db", destination).status == 0)
    }

    @Test func aTemporaryFileOfARunningBackupIsNotTakenForLitter() throws {
        try fixture.addSampleContent()
        let destination = fixture.directory.path("copy.sqlite")
        // A stale file of a killed run, and one a live process holds locked.
        let stale = fixture.directory.path(".copy.sqlite.tmp-0000dead")
        let held = fixture.directory.path(".copy.sqlite.tmp-00001ive")
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("partial".utf8)))
        #expect(FileManager.default.createFile(atPath: stale + "-journal", contents: Data()))
        #expect(FileManager.default.createFile(atPath: held, contents: Data()))
        let holder = open(held, O_RDONLY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)

        let result = try fixture.stockroom("backup", destination)
        #expect(result.status == 0, "\(result)")
        #expect(try temporaryFiles(of: destination) == [".copy.sqlite.tmp-00001ive"])
    }

    /// Issue 28 (left from an earlier round): SQLite ignores a failed delete of the copy's
    /// `-wal` and `-shm` when it switches the copy to a rollback journal, and the backup used to
    /// exit 0 with them left behind. Here every unlink of such a name fails (a shim preloaded
    /// into the real process): the backup must say so in one line and exit non-zero, and place
    /// nothing at the destination.
    @Test func aTemporaryJournalThatCannotBeRemovedFailsTheBackup() throws {
        try fixture.addSampleContent()
        let shim = try UnlinkFaultShim(in: fixture.directory)
        let destination = fixture.directory.path("copy.sqlite")
        let result = try fixture.stockroom(arguments: ["backup", destination], environment: ["LD_PRELOAD": shim.path])
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.hasPrefix("error: cannot remove the temporary "), "\(result)")
        #expect(result.stderr.contains(".copy.sqlite.tmp-"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: destination))
        // Without the fault the same backup succeeds and leaves nothing beside it.
        let next = try fixture.stockroom("backup", destination)
        #expect(next.status == 0, "\(next)")
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
            .filter { $0.hasPrefix("copy.sqlite-") }
        #expect(left.isEmpty, "\(left)")
    }
}

/// A shared library that makes `unlink` fail with EACCES for the `-wal` and `-shm` of a
/// backup's temporary file (`.NAME.tmp-XXXX-wal`), built with the system's C compiler and
/// loaded into a real `stockroom` with `LD_PRELOAD`: SQLite calls the same `unlink`.
private struct UnlinkFaultShim {
    let path: String

    init(in directory: TemporaryDirectory) throws {
        let source = directory.path("unlink-fault.c")
        path = directory.path("unlink-fault.so")
        try """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <string.h>
        static int refused(const char *path) {
            size_t length = strlen(path);
            return strstr(path, ".tmp-") != NULL && length > 4
                && (strcmp(path + length - 4, "-wal") == 0 || strcmp(path + length - 4, "-shm") == 0);
        }
        int unlink(const char *path) {
            if (refused(path)) { errno = EACCES; return -1; }
            int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
            return real(path);
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiled = try Processes.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", path, source, "-ldl"])
        guard compiled.status == 0 else { throw ShimError(message: "cc failed: \(compiled)") }
    }

    struct ShimError: Error { let message: String }
}

