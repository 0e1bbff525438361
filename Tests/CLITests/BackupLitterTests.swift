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
}
