import Foundation
import SQLiteCore
import StockroomMigrations
import StockroomStore
import StockroomTestSupport
import Testing

/// `DatabaseFile`: look first, decide, then write.
@Suite struct DatabaseFileTests {
    let directory = TemporaryDirectory()

    @Test func readingAMissingFileCreatesNothing() throws {
        let path = directory.path("missing.sqlite")
        #expect(try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 100) == nil)
        let store = try InventoryStore.reading(path: path, contents: .items)
        #expect(try store.items.everyItem().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aForeignFileIsRefusedBeforeAnythingIsWritten() throws {
        let path = directory.path("notes.sqlite")
        let other = try Database(path: path, mode: .readWriteCreate)
        try other.execute("PRAGMA journal_mode = DELETE; CREATE TABLE notes (body TEXT); CREATE TABLE tags (name TEXT);")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: DatabaseFileError.self) { try InventoryStore(path: path) }
        #expect(error?.description == "notes.sqlite is a SQLite database but not a Stockroom one (tables: notes, tags); nothing was changed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let accepted = try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 100, accepting: .foreign)
        #expect(accepted?.inspection.isForeign == true)
    }

    @Test func aNewFileIsCreatedWholeWithEveryMigration() throws {
        let path = directory.path("new.sqlite")
        var applied: [Int] = []
        _ = try DatabaseFile.openForWriting(path: path, busyTimeoutMilliseconds: 1000) { applied.append($0.version) }
        #expect(applied == MigrationSet.embedded(.sqlite).migrations.map(\.version))
        let folder = try FileManager.default.contentsOfDirectory(atPath: directory.path("."))
        #expect(!folder.contains { $0.contains(".tmp-") }, "\(folder)")
        let reopened = try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 100)
        #expect(reopened?.inspection.version == MigrationSet.embedded(.sqlite).latestVersion)
    }
}
