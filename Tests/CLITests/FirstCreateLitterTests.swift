import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// A first create builds the database in `.NAME.tmp-new-*` beside it. A process killed
/// (SIGKILL) meanwhile leaves that file and its journals behind; the kernel drops the `flock`
/// the creator held on it, which is how a later command tells such litter from the file of a
/// create still going on in another process.
@Suite struct FirstCreateLitterTests {
    let directory = TemporaryDirectory()

    /// What a SIGKILLed first create leaves: its temporary database and journals, unlocked.
    private func leaveLitter(of database: String, tag: String) throws -> [String] {
        let url = URL(fileURLWithPath: database)
        let base = url.deletingLastPathComponent().appending(path: "." + url.lastPathComponent + ".tmp-new-" + tag).path
        let names = [base, base + "-wal", base + "-shm", base + "-journal"]
        for name in names { try Data("half made".utf8).write(to: URL(fileURLWithPath: name)) }
        return names.map { URL(fileURLWithPath: $0).lastPathComponent }
    }

    private func names() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    }

    @Test func theNextCreateRemovesWhatAKilledCreateLeft() throws {
        let path = directory.path("inventory.sqlite")
        _ = try leaveLitter(of: path, tag: "DEADBEEF")
        let added = try Processes.stockroom(["--db", path, "items", "add", "--name", "first"])
        #expect(added.status == 0, "\(added)")
        #expect(try names() == ["inventory.sqlite"])
    }

    @Test func theNextWriteToAnExistingDatabaseRemovesIt() throws {
        let path = directory.path("inventory.sqlite")
        #expect(try Processes.stockroom(["--db", path, "items", "add", "--name", "first"]).status == 0)
        let before = try names()
        _ = try leaveLitter(of: path, tag: "0BADF00D")
        #expect(try Processes.stockroom(["--db", path, "items", "add", "--name", "second"]).status == 0)
        #expect(try names() == before)
    }

    @Test func aReadCommandLeavesItAlone() throws {
        let path = directory.path("inventory.sqlite")
        #expect(try Processes.stockroom(["--db", path, "items", "add", "--name", "first"]).status == 0)
        let litter = try leaveLitter(of: path, tag: "0BADF00D")
        #expect(try Processes.stockroom(["--db", path, "items", "list"]).status == 0)
        #expect(try names().isSuperset(of: litter), "read commands never write, not even to remove litter")
    }

    /// A temporary file whose `flock` a live process holds is a create going on right now
    /// (here this test process holds it): never removed, nor its journals.
    @Test func aTemporaryFileALiveProcessHoldsIsKept() throws {
        let path = directory.path("inventory.sqlite")
        let litter = try leaveLitter(of: path, tag: "A11VE000")
        let descriptor = open(directory.path(litter[0]), O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let added = try Processes.stockroom(["--db", path, "items", "add", "--name", "first"])
        #expect(added.status == 0, "\(added)")
        #expect(try names() == Set(litter + ["inventory.sqlite"]))
    }
}
