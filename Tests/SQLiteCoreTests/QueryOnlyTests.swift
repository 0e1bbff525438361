import Foundation
import SQLiteCore
import StockroomTestSupport
import Testing

/// `.queryOnly`: inspect a file as fully as a writer could, without changing it.
@Suite struct QueryOnlyTests {
    let directory = TemporaryDirectory()

    /// A rollback-journal file with a row that breaks its CHECK constraint.
    func makeFile() throws -> String {
        let path = directory.path("file.sqlite")
        let database = try Database(path: path)
        try database.execute("""
            PRAGMA journal_mode = DELETE;
            CREATE TABLE t (x INTEGER CHECK (x > 0));
            PRAGMA ignore_check_constraints = ON;
            INSERT INTO t VALUES (-1);
            """)
        return path
    }

    @Test func itSeesCheckConstraintsThatAReadOnlyConnectionDoesNotParse() throws {
        let path = try makeFile()
        #expect(try Database(path: path, mode: .readOnly).integrityProblems() == [])
        #expect(try Database(path: path, mode: .queryOnly).integrityProblems() == ["CHECK constraint failed in t"])
    }

    @Test func itRefusesWritesAndKeepsTheJournalMode() throws {
        let path = try makeFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let database = try Database(path: path, mode: .queryOnly)
        let error = #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO t VALUES (1)") }
        #expect(error?.codeName == "SQLITE_READONLY")
        #expect(try database.withStatement("PRAGMA journal_mode") { try $0.step(); return $0.text(at: 0) } == "delete")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func itFailsOnAMissingFileInsteadOfCreatingIt() throws {
        let path = directory.path("missing.sqlite")
        #expect(throws: SQLiteError.self) { try Database(path: path, mode: .queryOnly) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
