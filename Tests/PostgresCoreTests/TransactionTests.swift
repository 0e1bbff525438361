import Foundation
import PostgresCore
import StockroomTestSupport
import Testing

/// Transactions commit, roll back, and retry serialization failures where told to.
@Suite struct TransactionTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    struct Refused: Error {}

    func makeCounter(_ connection: Connection) throws {
        try connection.execute("CREATE TABLE counter (id integer PRIMARY KEY, n integer NOT NULL); INSERT INTO counter VALUES (1, 0)")
    }

    func value(_ connection: Connection) throws -> Int {
        try connection.query("SELECT n FROM counter WHERE id = 1").scalar(Int.self)
    }

    @Test func aTransactionCommitsAndOthersSeeItOnlyAfterwards() throws {
        let connection = try schema.connect()
        let other = try schema.connect()
        try makeCounter(connection)
        try connection.transaction {
            try connection.run("UPDATE counter SET n = 5")
            #expect(connection.transactionState == .inTransaction)
            #expect(try value(other) == 0, "not visible before COMMIT")
        }
        #expect(try value(other) == 5)
        #expect(connection.transactionState == .idle)
    }

    @Test func aThrowingBodyRollsBack() throws {
        let connection = try schema.connect()
        try makeCounter(connection)
        #expect(throws: Refused.self) {
            try connection.transaction {
                try connection.run("UPDATE counter SET n = 9")
                throw Refused()
            }
        }
        #expect(try value(connection) == 0)
        #expect(connection.transactionState == .idle)
    }

    @Test func aSwallowedStatementFailureMakesCommitFail() throws {
        let connection = try schema.connect()
        try makeCounter(connection)
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try connection.run("UPDATE counter SET n = 3")
                _ = try? connection.run("UPDATE counter SET n = 'x'")
            }
        }
        #expect(error.message.contains("rolled back"))
        #expect(try value(connection) == 0)
    }

    @Test func aReadOnlyTransactionRefusesWrites() throws {
        let connection = try schema.connect()
        try makeCounter(connection)
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction(readOnly: true) { try connection.run("UPDATE counter SET n = 1") }
        }
        #expect(error.sqlState == "25006")
    }

    @Test func aSerializationFailureIsRetriedFromTheStart() throws {
        let connection = try schema.connect()
        let rival = try schema.connect()
        try makeCounter(connection)
        var attempts = 0
        try connection.retryingTransaction(isolation: .repeatableRead) {
            attempts += 1
            let seen = try value(connection) // the snapshot is taken here
            if attempts == 1 { try rival.run("UPDATE counter SET n = n + 100") } // commits in between
            try connection.run("UPDATE counter SET n = $1", seen + 1)
        }
        #expect(attempts == 2)
        #expect(try value(connection) == 101, "the retry saw the rival's write")
    }

    @Test func withoutRetryTheSerializationFailureIsClassified() throws {
        let connection = try schema.connect()
        let rival = try schema.connect()
        try makeCounter(connection)
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction(isolation: .repeatableRead) {
                _ = try value(connection)
                try rival.run("UPDATE counter SET n = n + 100")
                try connection.run("UPDATE counter SET n = n + 1")
            }
        }
        #expect(error.kind == .serializationFailure)
        #expect(error.sqlState == "40001")
        #expect(error.isRetryableTransactionFailure)
        #expect(try value(connection) == 100)
    }

    @Test func aLostConnectionBeforeCommitIsRetriedOnlyWhenAskedTo() throws {
        let connection = try schema.connect()
        let killer = try schema.connect()
        try makeCounter(connection)
        var attempts = 0
        try connection.retryingTransaction(reconnecting: true) {
            attempts += 1
            if attempts == 1 { try killer.query("SELECT pg_terminate_backend($1)", connection.backendProcessID) }
            try connection.run("UPDATE counter SET n = n + 1")
        }
        #expect(attempts == 2)
        #expect(try value(connection) == 1)
    }
}

/// An advisory lock held by one transaction makes another wait for it.
@Suite struct AdvisoryLockTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    @Test func aSecondConnectionWaitsForTheLockAndSeesTheFirstOnesWork() throws {
        let key = AdvisoryLockKey(name: "stockroom.migrations")
        let first = try schema.connect()
        try first.execute("CREATE TABLE applied (version integer)")
        let uri = schema.uri
        let seenBySecond = Locked<Result<Int, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        try first.withAdvisoryLock(key) {
            let backend = Locked<Int?>(nil)
            Thread.detachNewThread {
                let result = Result<Int, any Error> {
                    let second = try Connection(uri)
                    backend.withValue { $0 = second.backendProcessID }
                    return try second.withAdvisoryLock(key) {
                        // Taken only after the first transaction committed its row.
                        try second.query("SELECT count(*) FROM applied").scalar(Int.self)
                    }
                }
                seenBySecond.withValue { $0 = result }
                done.signal()
            }
            // Watch the server until the second connection is queued behind the lock.
            let observer = try schema.connect()
            var waiting = false
            while !waiting, seenBySecond.current == nil { // nil: the second thread has not failed
                guard let pid = backend.current else { continue }
                waiting = try observer.query(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = $1", pid
                ).scalar(Int.self) == 1
            }
            #expect(try first.tryLockForTransaction(AdvisoryLockKey(1)), "other keys are free")
            try first.run("INSERT INTO applied VALUES (1)")
        }
        done.wait()
        #expect(try seenBySecond.current?.get() == 1)
    }

    @Test func aLockOutsideATransactionIsRefused() throws {
        let connection = try schema.connect()
        #expect(throws: PostgresError.self) { try connection.lockForTransaction(AdvisoryLockKey(7)) }
    }

    @Test func keysFromNamesAreStable() {
        #expect(AdvisoryLockKey(name: "stockroom.migrations") == AdvisoryLockKey(name: "stockroom.migrations"))
        #expect(AdvisoryLockKey(name: "a") != AdvisoryLockKey(name: "b"))
        #expect(AdvisoryLockKey(name: "").rawValue == Int64(bitPattern: 0xcbf2_9ce4_8422_2325))
    }
}
