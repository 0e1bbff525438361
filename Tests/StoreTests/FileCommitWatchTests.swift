import Dispatch
import Foundation
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The SQLite file's commit watch (inotify): a write to the WAL wakes it before the commit is
/// visible, and it must keep checking until the commit shows, however long the writer's sync
/// takes on a busy disk.
@Suite struct FileCommitWatchTests {
    @Test func aCommitVisibleSecondsAfterItsWriteIsStillConfirmed() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("inventory.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(!FileCommitWatch.usesFallback(for: path), "the test is about the inotify watch")
        let watch = try FileCommitWatch.make(path: path)

        // The WAL written, as a commit's frames are; `visible` stands in for the WAL index,
        // which the writer updates only after syncing the WAL: here three seconds later.
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data([1])))
        let written = ContinuousClock.now
        let stop = StopSignal()
        // A bound on the test, not a wait for anything: the watch before this fix stopped
        // checking about a second after the write and would then wait for the kernel forever.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { stop.stop() }
        var checks = 0
        let confirmed = try watch.wait(stop: stop) {
            checks += 1
            return written.duration(to: .now) > .seconds(3)
        }
        stop.stop()
        #expect(confirmed)
        // Pauses double to half a second and stay there: a few checks, not a busy loop.
        #expect(checks > 3 && checks < 40, "\(checks) checks")
    }
}
