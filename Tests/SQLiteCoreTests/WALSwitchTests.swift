import CSQLite
import Foundation
import SQLiteCore
import StockroomTestSupport
import Testing

/// Switching a rollback-journal file to WAL while another connection reads: SQLite answers the
/// lock upgrade with SQLITE_BUSY without calling the busy handler, so `prepareForWriting()`
/// retries until the busy timeout has passed, and the switch happens once the reader is gone.
@Suite struct WALSwitchTests {
    let directory = TemporaryDirectory()

    func rollbackJournalFile() throws -> String {
        let path = directory.path("rollback.sqlite")
        let setup = try Database(path: path, mode: .readWriteCreate)
        try setup.execute("PRAGMA journal_mode = DELETE; CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        return path
    }

    @Test func theSwitchWaitsTheWholeBusyTimeoutWhileAReaderHoldsItsLock() throws {
        let path = try rollbackJournalFile()
        let reader = try Database(path: path, mode: .readWrite)
        try reader.execute("PRAGMA journal_mode = DELETE")
        try reader.execute("BEGIN; SELECT count(*) FROM t;")
        let writer = try Database(path: path, mode: .readWriteInspectFirst, configuration: .init(busyTimeout: .milliseconds(300)))
        let started = ContinuousClock.now
        let error = #expect(throws: SQLiteError.self) { try writer.prepareForWriting() }
        #expect(error?.isBusy == true)
        #expect(started.duration(to: .now) >= .milliseconds(300))

        try reader.execute("COMMIT")
        try writer.prepareForWriting()
        #expect(try writer.withStatement("PRAGMA journal_mode") { try $0.step(); return $0.text(at: 0) } == "wal")
    }

    @Test func inspectFirstWritesNothingUntilPreparedForWriting() throws {
        let path = try rollbackJournalFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let database = try Database(path: path, mode: .readWriteInspectFirst)
        #expect(try database.withStatement("SELECT count(*) FROM t") { try $0.step(); return $0.int(at: 0) } == 1)
        #expect(try database.withStatement("PRAGMA journal_mode") { try $0.step(); return $0.text(at: 0) } == "delete")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A WAL that holds committed frames stays a WAL: a query-only connection closing last does
    /// not checkpoint it into the file, whose bytes stay as they were.
    @Test func aQueryOnlyConnectionDoesNotCheckpointAWALItFoundFull() throws {
        let path = directory.path("wal.sqlite")
        do {
            let writer = try Database(path: path, mode: .readWriteCreate)
            try writer.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE); INSERT INTO t VALUES (2);")
            // Close without checkpointing, leaving the frames in the WAL as a killed writer would.
            _ = csqlite_db_config_int(writer.rawHandle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nil)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(!walBefore.isEmpty)
        do {
            let reader = try Database(path: path, mode: .queryOnly)
            #expect(try reader.withStatement("SELECT count(*) FROM t") { try $0.step(); return $0.int(at: 0) } == 2)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == walBefore)
    }
}
