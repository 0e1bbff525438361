import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// The runner's failure modes through the binary, with fixture migration sets passed by the
/// hidden `--migrations-dir` option; the product's Migrations/ are never touched.
@Suite struct MigrateFixtureTests {
    let database = CLIDatabase()

    /// Writes `files` as the fixture folder (replacing the previous one) and returns its path.
    func fixtures(_ files: (fileName: String, sql: String)...) throws -> String {
        try MigrationFixtures.write(files, into: database.directory)
    }

    func migrate(_ arguments: String..., folder: String) throws -> ProcessResult {
        try database.stockroom(arguments: ["migrate"] + arguments + ["--migrations-dir", folder])
    }

    @Test func aTableRebuildKeepsTheRowsThatReferenceIt() throws {
        let folder = try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves)
        let up = try migrate("up", folder: folder)
        #expect(up.lines == ["Applied 0001_create_shelves_and_boxes.sql", "Applied 0002_rebuild_shelves.sql"], "\(up)")
        #expect(try database.sqlite3("SELECT count(*) FROM boxes") == "3")
        #expect(try database.sqlite3("SELECT group_concat(aisle) FROM shelves") == "1,1")
        #expect(try migrate("verify", folder: folder).status == 0)
    }

    @Test func aStatementFailingMidFileNamesFileStatementAndMessageAndLeavesThePreviousVersion() throws {
        let folder = try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.failingMidFile)
        let up = try migrate("up", folder: folder)
        expectFailure(up, code: .dataError)
        #expect(up.errorMessage ==
            "migration 0002_add_labels.sql failed at `UPDATE labels SET colour = 'red'`: no such column: colour (SQLITE_ERROR); rolled back")
        #expect(up.lines == ["Applied 0001_create_shelves_and_boxes.sql"], "\(up)")
        #expect(try database.sqlite3("SELECT group_concat(version) FROM schema_migrations") == "1")
        #expect(try database.sqlite3("SELECT count(*) FROM sqlite_schema WHERE name = 'labels'") == "0", "the failing migration was rolled back whole")
        let status = try migrate("status", folder: folder)
        #expect(status.lines.dropFirst().map { $0.contains(" applied ") } == [true, false], "\(status)")
    }

    @Test func aForeignKeyViolationRollsBackAndNamesTheTable() throws {
        #expect(try migrate("up", folder: try fixtures(MigrationFixtures.shelvesAndBoxes)).status == 0)
        let before = try database.sqlite3(".schema")
        let up = try migrate("up", folder: try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildLeavingOrphans))
        expectFailure(up, code: .dataError, message: "migration 0002_rebuild_boxes.sql left 2 rows in table 'boxes' violating a foreign key; rolled back")
        #expect(try database.sqlite3(".schema") == before)
        #expect(try database.sqlite3("SELECT (SELECT count(*) FROM shelves) || '/' || (SELECT count(*) FROM boxes)") == "2/3")
    }

    @Test func aNoTransactionMigrationIsApplied() throws {
        let folder = try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.vacuum)
        #expect(try migrate("up", "--dry-run", folder: folder).lines.contains("Would apply 0003_vacuum.sql (outside a transaction)"))
        let up = try migrate("up", folder: folder)
        #expect(up.lines.last == "Applied 0003_vacuum.sql", "\(up)")
        #expect(try database.sqlite3("SELECT group_concat(version) FROM schema_migrations") == "1,2,3")
    }

    @Test func anAppliedFileEditedLaterIsShownRefusedAndReported() throws {
        #expect(try migrate("up", folder: try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves)).status == 0)
        let edited = (fileName: MigrationFixtures.rebuildShelves.fileName, sql: MigrationFixtures.rebuildShelves.sql + "\n-- tweaked\n")
        let folder = try fixtures(MigrationFixtures.shelvesAndBoxes, edited, MigrationFixtures.notes)
        let before = try database.contents()

        let status = try migrate("status", folder: folder)
        #expect(status.lines.contains { $0.hasPrefix("2 ") && $0.hasSuffix("MODIFIED") }, "\(status)")
        let up = try migrate("up", folder: folder)
        expectFailure(up, code: .dataError)
        #expect(up.errorMessage.hasPrefix("applied migration 2 (0002_rebuild_shelves.sql) was modified after it was applied"))
        let verify = try migrate("verify", folder: folder)
        expectFailure(verify, code: .dataError)
        #expect(verify.lines.first?.hasPrefix("applied migration 2 (0002_rebuild_shelves.sql) was modified") == true)
        #expect(try database.contents() == before)
    }

    @Test func aFileCheckedOutWithCRLFIsNotModified() throws {
        #expect(try migrate("up", folder: try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves)).status == 0)
        let crlf = (fileName: MigrationFixtures.rebuildShelves.fileName,
                    sql: MigrationFixtures.rebuildShelves.sql.replacingOccurrences(of: "\n", with: "\r\n"))
        let folder = try fixtures(MigrationFixtures.shelvesAndBoxes, crlf)
        #expect(try migrate("status", folder: folder).lines.filter { $0.hasSuffix(" ok") }.count == 2)
        #expect(try migrate("verify", folder: folder).status == 0)
    }

    @Test func aDatabaseFromANewerStockroomIsListedAndRefused() throws {
        #expect(try migrate("up", folder: try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves)).status == 0)
        let older = try fixtures(MigrationFixtures.shelvesAndBoxes)
        let status = try migrate("status", folder: older)
        #expect(status.status == 0)
        let words = status.lines.last?.split(separator: " ").map(String.init) ?? []
        #expect(Array(words.prefix(6)) == ["2", "rebuild_shelves", "unknown", "(newer", "than", "this"], "\(status)")
        let up = try migrate("up", folder: older)
        expectFailure(up, code: .dataError, message: "the database has migration 2 that this stockroom does not know; it was created by a newer version")
        let verify = try migrate("verify", folder: older)
        expectFailure(verify, code: .dataError)
        #expect(verify.lines.last == "The schema was not compared: the database records migrations this stockroom does not know.")
    }

    @Test func aSkippedVersionIsAGap() throws {
        #expect(try migrate("up", folder: try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.notes)).status == 0)
        let folder = try fixtures(MigrationFixtures.shelvesAndBoxes, MigrationFixtures.rebuildShelves, MigrationFixtures.notes)
        #expect(try migrate("status", folder: folder).lines.contains { $0.hasPrefix("2 ") && $0.contains(" skipped ") })
        expectFailure(try migrate("status", "--exit-code", folder: folder), code: .pending)
        let up = try migrate("up", folder: folder)
        expectFailure(up, code: .dataError, message: "the database skipped migration 2 although later ones are applied")
    }

    @Test func aMissingMigrationsFolderIsNotFound() throws {
        let result = try migrate("status", folder: database.directory.path("nowhere"))
        expectFailure(result, code: .notFound, message: "no migrations folder at \(database.directory.path("nowhere"))")
    }
}
