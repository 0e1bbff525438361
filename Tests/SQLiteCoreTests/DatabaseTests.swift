import CSQLite
import Foundation
import SQLiteCore
import StockroomTestSupport
import Testing

@Suite struct DatabaseTests {
    let directory = TemporaryDirectory()

    func open(_ name: String = "core.sqlite", timeout: Int32 = 5_000) throws -> Database {
        try Database(path: directory.path(name), configuration: .init(busyTimeout: .milliseconds(timeout)))
    }

    func pragma(_ database: Database, _ name: String) throws -> String {
        try database.withStatement("PRAGMA \(name)") { statement in
            try statement.step()
            return statement.text(at: 0)
        }
    }

    @Test func openingConfiguresWALFullSyncAndForeignKeys() throws {
        let database = try open()
        #expect(try pragma(database, "journal_mode") == "wal")
        #expect(try pragma(database, "synchronous") == "2") // FULL
        #expect(try pragma(database, "foreign_keys") == "1")
    }

    @Test func cachedStatementsAreCompiledOnce() throws {
        let database = try open()
        let first = try database.cachedStatement("SELECT 1")
        let second = try database.cachedStatement("SELECT 1")
        #expect(first === second)
        #expect(try database.cachedStatement("SELECT 2") !== first)
    }

    @Test func typedValuesRoundTrip() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT) STRICT")
        try database.withStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?)") { statement in
            try statement.bind(Int.max, at: 0)
            try statement.bind(2.5, at: 1)
            try statement.bind("héllo, \"wörld\" 🎉", at: 2)
            try statement.bind([0, 1, 255] as [UInt8], at: 3)
            try statement.bind(nil as String?, at: 4)
            try statement.run()
        }
        try database.withStatement("SELECT i, r, s, b, n FROM t") { statement in
            let hasRow = try statement.step()
            #expect(hasRow)
            #expect(statement.int(at: 0) == Int.max)
            #expect(statement.double(at: 1) == 2.5)
            #expect(statement.text(at: 2) == "héllo, \"wörld\" 🎉")
            #expect(statement.value(at: 3) == .blob([0, 1, 255]))
            #expect(statement.optionalText(at: 4) == nil)
            let hasMore = try statement.step()
            #expect(!hasMore)
        }
    }

    @Test func errorsCarryTheExtendedCodeMessageAndSQL() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (x INTEGER NOT NULL CHECK (x > 0)) STRICT")
        let error = #expect(throws: SQLiteError.self) {
            try database.withStatement("INSERT INTO t (x) VALUES (?)") { statement in
                try statement.bind(-1, at: 0)
                try statement.run()
            }
        }
        #expect(error?.extendedCode == 275) // SQLITE_CONSTRAINT_CHECK
        #expect(error?.codeName == "SQLITE_CONSTRAINT_CHECK")
        #expect(error?.isConstraintViolation == true)
        #expect(error?.message.contains("CHECK constraint failed") == true)
        #expect(error?.sql == "INSERT INTO t (x) VALUES (?)")
        #expect(error?.expandedSQL == "INSERT INTO t (x) VALUES (-1)")
        #expect(error?.description.contains("SQLITE_CONSTRAINT_CHECK (275)") == true)
        // Bound values may be personal data: only the debugging text spells them out.
        #expect(error?.description.contains("VALUES (?)") == true)
        #expect(error?.description.contains("-1") == false)
        #expect(error?.debugDescription.contains("VALUES (-1)") == true)
    }

    @Test func aScriptErrorNamesTheStatementThatFailed() throws {
        let database = try open()
        let error = #expect(throws: SQLiteError.self) {
            try database.execute("CREATE TABLE a (x);\nINSERT INTO missing VALUES (1);\nCREATE TABLE b (y);")
        }
        #expect(error?.sql == "INSERT INTO missing VALUES (1);")
        #expect(error?.message == "no such table: missing")
        // Statements before the failure ran; the one after did not.
        let tables = try database.withStatement("SELECT group_concat(name) FROM sqlite_schema WHERE name IN ('a', 'b')") { s in
            try s.step()
            return s.text(at: 0)
        }
        #expect(tables == "a")
    }

    @Test func prepareRefusesASecondStatement() throws {
        let database = try open()
        #expect(throws: SQLiteError.self) { try database.prepare("SELECT 1; SELECT 2") }
        #expect(throws: Never.self) { try database.prepare("SELECT 1; -- trailing comment\n") }
    }

    @Test func aThrowingTransactionRollsBackEverything() throws {
        let database = try open()
        try database.execute("CREATE TABLE t (x INTEGER) STRICT")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.writeTransaction {
                try database.execute("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(database.isAutocommit)
        try database.writeTransaction {
            try database.execute("INSERT INTO t VALUES (2)")
            #expect(throws: Abort.self) {
                try database.savepoint {
                    try database.execute("INSERT INTO t VALUES (3)")
                    throw Abort()
                }
            }
        }
        let values = try database.withStatement("SELECT x FROM t ORDER BY x") { statement in
            var values: [Int] = []
            while try statement.step() { values.append(statement.int(at: 0)) }
            return values
        }
        #expect(values == [2])
    }

    @Test func aWriterWaitsOutTheBusyTimeoutThenFailsWithBusy() throws {
        let holder = try open()
        try holder.execute("CREATE TABLE t (x INTEGER) STRICT")
        let waiter = try open(timeout: 50)
        try holder.execute("BEGIN IMMEDIATE")
        let error = #expect(throws: SQLiteError.self) {
            try waiter.writeTransaction { try waiter.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error?.isBusy == true)
        try holder.execute("COMMIT")
        try waiter.writeTransaction { try waiter.execute("INSERT INTO t VALUES (1)") }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedOnOpen() throws {
        let path = directory.path("notes.txt")
        try "just some text, definitely not SQLite\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: SQLiteError.self) { try Database(path: path) }
        #expect(error?.primaryCode == SQLITE_NOTADB)
        #expect(error?.isFileProblem == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "just some text, definitely not SQLite\n")
    }

    @Test func aMissingDirectoryCannotBeOpened() throws {
        let error = #expect(throws: SQLiteError.self) { try Database(path: directory.path("missing/inventory.sqlite")) }
        #expect(error?.primaryCode == SQLITE_CANTOPEN)
    }

    @Test func interruptStopsARunawayQuery() throws {
        let database = try open()
        let interrupter = database.interrupter
        let statement = try database.prepare(
            "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT count(*) FROM forever")
        // sqlite3_interrupt is a no-op while no statement runs, so one call could land before
        // the step starts and the query would never end: keep interrupting until it stops.
        let stopped = StopFlag()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while !stopped.isSet { interrupter.interrupt() }
            finished.signal()
        }
        let error = #expect(throws: SQLiteError.self) { try statement.step() }
        // The interrupting thread must be done before the connection closes.
        stopped.set()
        finished.wait()
        #expect(error?.isInterrupted == true)
    }
}

/// A flag one thread sets and another polls.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
