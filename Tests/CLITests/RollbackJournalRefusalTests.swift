import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// A command refused after the file was opened for writing (a well-formed id that matches
/// nothing, an import with a bad row) leaves a rollback-journal file byte for byte as it was:
/// its journal mode included, which `.dump` does not show. Opening for writing no longer
/// switches such a file to WAL; the first committed change does.
@Suite struct RollbackJournalRefusalTests {
    /// A Stockroom database holding one item and one draft, switched back to a rollback journal
    /// as the `sqlite3` shell or another tool may leave it.
    private func rollbackJournalDatabase() throws -> CLIDatabase {
        let database = CLIDatabase()
        #expect(try database.stockroom("items", "add", "--name", "Keyboard").status == 0)
        #expect(try database.stockroom("draft", "add", "--name", "Mouse").status == 0)
        #expect(try database.sqlite3("PRAGMA journal_mode = DELETE;") == "delete")
        return database
    }

    /// The file's bytes and journal mode are as before, and no `-wal` or `-journal` was left.
    private func expectUntouched(_ database: CLIDatabase, before: Data, _ arguments: [String],
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try database.contents() == before, "\(arguments) wrote to the file", sourceLocation: sourceLocation)
        for suffix in ["-wal", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: database.path + suffix),
                    "\(arguments) left \(suffix)", sourceLocation: sourceLocation)
        }
        #expect(try database.sqlite3("PRAGMA journal_mode;") == "delete", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ["items", "update", "0000", "--name", "y"],
        ["items", "delete", "0000"],
        ["draft", "save", "0000"],
        ["draft", "edit", "0000", "--name", "y"],
        ["draft", "cancel", "0000"],
    ])
    func aWellFormedIDThatMatchesNothingLeavesTheFileAsItWas(_ arguments: [String]) throws {
        let database = try rollbackJournalDatabase()
        let before = try database.contents()
        let result = try database.stockroom(arguments: arguments)
        expectFailure(result, code: .notFound, mentioning: "0000")
        #expect(result.stdout.isEmpty)
        try expectUntouched(database, before: before, arguments)
    }

    @Test func anImportWithABadRowLeavesTheFileAsItWas() throws {
        let database = try rollbackJournalDatabase()
        let before = try database.contents()
        let file = database.directory.path("bad.csv")
        let text = "id,name,color,status,quantity,is_on_back_order\n,Good,,in_stock,1,\n,,,in_stock,1,\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try database.stockroom("import", file)
        #expect(result.status == Failure.Code.dataError.rawValue, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == ["error: 1 bad row; nothing was imported", "3: missing or blank name"], "\(result)")
        #expect(lines.filter { $0.hasPrefix("error:") }.count == 1)
        #expect(result.stdout.isEmpty)
        try expectUntouched(database, before: before, ["import", file])
    }

    @Test(arguments: [
        ["items", "add", "--name", "Monitor"],
        ["draft", "add", "--name", "Cable"],
        ["draft", "cancel", "DRAFT"],
    ])
    func aCommittedChangeSwitchesTheFileToWAL(_ arguments: [String]) throws {
        let database = try rollbackJournalDatabase()
        let draft = try database.sqlite3("SELECT id FROM drafts LIMIT 1;")
        let result = try database.stockroom(arguments: arguments.map { $0 == "DRAFT" ? draft : $0 })
        #expect(result.status == 0, "\(result)")
        #expect(try database.sqlite3("PRAGMA journal_mode;") == "wal")
        #expect(try database.sqlite3("PRAGMA integrity_check;") == "ok")
    }
}
