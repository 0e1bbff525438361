import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `backup` and `restore` treat another program's SQLite file as every other command does:
/// refused with exit 65, naming the tables found, the file byte for byte as it was.
@Suite struct ForeignFileMaintenanceTests {
    let directory = TemporaryDirectory()

    /// notes.sqlite: tables but no `schema_migrations`, in rollback-journal mode (the default
    /// of the `sqlite3` shell), so any write before the refusal would show in its bytes.
    private func foreignFile() throws -> String {
        let notes = directory.path("notes.sqlite")
        let made = try Processes.sqlite3(notes, "CREATE TABLE notes (body TEXT); CREATE TABLE tags (name TEXT); INSERT INTO notes VALUES ('mine');")
        #expect(made.status == 0, "\(made)")
        return notes
    }

    private func backupFile() throws -> String {
        let source = CLIDatabase()
        #expect(try source.stockroom("items", "add", "--name", "Keyboard").status == 0)
        let backup = directory.path("backup.sqlite")
        #expect(try source.stockroom("backup", backup).status == 0)
        return backup
    }

    private func folderNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test(arguments: [false, true])
    func restoreRefusesToReplaceAForeignFileEvenWithForce(force: Bool) throws {
        let backup = try backupFile()
        let notes = try foreignFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: notes))
        let names = try folderNames()
        let result = try Processes.stockroom(["--db", notes, "restore", backup] + (force ? ["--force"] : []))
        expectFailure(result, code: .dataError,
                      message: "notes.sqlite is a SQLite database but not a Stockroom one (tables: notes, tags); nothing was changed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == before)
        #expect(try folderNames() == names, "no safety copy and no temporary file is left")
    }

    @Test func backupOfAForeignFileNamesItsTables() throws {
        let notes = try foreignFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: notes))
        let result = try Processes.stockroom(["--db", notes, "backup", directory.path("copy.sqlite")])
        expectFailure(result, code: .dataError,
                      message: "notes.sqlite is a SQLite database but not a Stockroom one (tables: notes, tags); nothing was changed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == before)
        #expect(try folderNames() == ["notes.sqlite"])
    }

    /// The refusal of a database with content (no --force) also comes before any write: it
    /// used to switch a rollback-journal file to WAL first.
    @Test func restoreWithoutForceLeavesARollbackJournalDatabaseByteIdentical() throws {
        let backup = try backupFile()
        let live = CLIDatabase()
        #expect(try live.stockroom("items", "add", "--name", "Mouse").status == 0)
        #expect(try live.sqlite3("PRAGMA journal_mode = DELETE;") == "delete")
        let before = try live.contents()
        let result = try live.stockroom("restore", backup)
        expectFailure(result, code: .cannotCreate, mentioning: "pass --force")
        #expect(try live.contents() == before)
        #expect(try live.sqlite3("PRAGMA journal_mode;") == "delete")
    }
}
