import SQLiteCore
import StockroomTestSupport
import Testing

/// The backup API wrapper on real files, with a second connection writing between steps as
/// another process would.
@Suite struct BackupTests {
    let directory = TemporaryDirectory()

    /// A WAL database with `rows` rows of 200 bytes each: a few hundred pages.
    func makeSource(rows: Int = 2_000) throws -> Database {
        let source = try Database(path: directory.path("source.sqlite"))
        try source.execute("""
            CREATE TABLE t (x BLOB NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO t SELECT randomblob(200) FROM n;
            """)
        return source
    }

    func count(_ database: Database) throws -> Int {
        try database.withStatement("SELECT count(*) FROM t") { statement in
            try statement.step()
            return statement.int(at: 0)
        }
    }

    @Test func steppedCopyFinishesWhileAnotherConnectionCommitsBetweenEverySteps() throws {
        let source = try makeSource()
        let writer = try Database(path: source.path)
        let destination = try Database(path: directory.path("copy.sqlite"))
        var steps = 0
        let done = try source.copy(into: destination, pagesPerStep: 10) { _ in
            steps += 1
            try? writer.execute("INSERT INTO t VALUES (randomblob(200))")
        }
        #expect(done.copiedPages == done.totalPages)
        #expect(steps == (done.totalPages + 9) / 10, "one progress report per step: no restarts")
        // The copy is the snapshot taken before the first step; the writes came after it.
        #expect(try count(destination) == 2_000)
        #expect(try count(source) == 2_000 + steps)
        #expect(try destination.integrityProblems().isEmpty)
    }

    @Test func withoutTheHeldReadTransactionEveryWriteRestartsTheCopy() throws {
        // Why `copy(into:)` holds a read transaction: the bare stepping loop never gets ahead.
        let source = try makeSource()
        let writer = try Database(path: source.path)
        let destination = try Database(path: directory.path("copy.sqlite"))
        let operation = try BackupOperation(from: source, into: destination)
        for _ in 0..<20 {
            #expect(try !operation.step(pages: 10))
            #expect(operation.progress.copiedPages <= 10)
            try writer.execute("INSERT INTO t VALUES (randomblob(200))")
        }
        try operation.finish()
    }

    @Test func theFirstEmptyStepWriteLocksTheDestinationAndFinishingEarlyRollsBack() throws {
        let source = try makeSource(rows: 10)
        let destination = try Database(path: directory.path("destination.sqlite"))
        try destination.execute("CREATE TABLE kept (x); INSERT INTO kept VALUES (1)")
        let otherWriter = try Database(path: destination.path, configuration: .init(busyTimeout: .zero))
        let reader = try Database(path: destination.path, mode: .readOnly)

        let operation = try BackupOperation(from: source, into: destination)
        #expect(try !operation.step(pages: 0))
        let refused = #expect(throws: SQLiteError.self) { try otherWriter.execute("INSERT INTO kept VALUES (2)") }
        #expect(refused?.isBusy == true)
        #expect(try reader.withStatement("SELECT count(*) FROM kept") { try $0.step(); return $0.int(at: 0) } == 1)

        try operation.finish()
        try otherWriter.execute("INSERT INTO kept VALUES (2)")
        #expect(try reader.withStatement("SELECT count(*) FROM kept") { try $0.step(); return $0.int(at: 0) } == 2)
        #expect(try !reader.tableExists("t"))
    }

    @Test func aSourceInAWriteTransactionCannotBeCopied() throws {
        let source = try makeSource(rows: 10)
        let destination = try Database(path: directory.path("copy.sqlite"))
        let error = #expect(throws: SQLiteError.self) {
            try source.writeTransaction { try source.copy(into: destination) }
        }
        #expect(error?.isBusy == true)
    }

    @Test func integrityAndForeignKeyChecksReportWhatIsWrong() throws {
        let database = try Database(path: directory.path("keys.sqlite"), configuration: .init(foreignKeys: false))
        try database.execute("""
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id));
            INSERT INTO parent VALUES (1);
            INSERT INTO child VALUES (10, 1), (11, 2), (12, 3);
            """)
        #expect(try database.integrityProblems().isEmpty)
        #expect(try database.foreignKeyViolations() == [
            ForeignKeyViolation(table: "child", rowID: 11, parent: "parent"),
            ForeignKeyViolation(table: "child", rowID: 12, parent: "parent"),
        ])
        #expect(try database.tableExists("child"))
        #expect(try !database.tableExists("children"))
    }
}
