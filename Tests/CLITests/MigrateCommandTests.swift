import Foundation
@testable import stockroom
import StockroomTestSupport
import StockroomMigrations
import Testing

/// `stockroom migrate …` with the product's own migrations, through the built binary.
@Suite struct MigrateCommandTests {
    let database = CLIDatabase()

    @Test func statusOfAMissingFileListsEveryMigrationAsPendingWithoutCreatingIt() throws {
        let status = try database.stockroom("migrate", "status")
        #expect(status.status == 0, "\(status)")
        // The NAME column is as wide as the longest name, plus two spaces.
        let width = MigrationSet.embedded(.sqlite).migrations.map(\.name.count).max()! + 2
        func padded(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
        #expect(status.lines.first == "VERSION  \(padded("NAME"))STATE    APPLIED AT  CHECKSUM")
        #expect(status.lines.dropFirst().map { $0.split(separator: " ").map(String.init) }
            == MigrationSet.embedded(.sqlite).migrations.map { [String($0.version), $0.name, "pending"] })
        #expect(status.lines.dropFirst().first?.hasPrefix("1        \(padded("create_items"))pending") == true, "\(status)")
        #expect(!database.exists)
    }

    @Test func statusAsJSONKeepsTypesAndNulls() throws {
        #expect(try database.stockroom("migrate", "up", "--to", "1").status == 0)
        let status = try database.stockroom("migrate", "status", "--format", "json")
        #expect(status.status == 0, "\(status)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == MigrationSet.embedded(.sqlite).migrations.count)
        #expect(entries[0]["version"] as? Int == 1)
        #expect(entries[0]["file"] as? String == "0001_create_items.sql")
        #expect(entries[0]["state"] as? String == "applied")
        #expect((entries[0]["appliedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(entries[0]["checksumMatches"] as? Bool == true)
        #expect(entries[1]["state"] as? String == "pending")
        #expect(entries[1]["appliedAt"] is NSNull)
        #expect(entries[1]["checksumMatches"] is NSNull)
    }

    @Test func statusAsCSVHasAHeaderRow() throws {
        let status = try database.stockroom("migrate", "status", "--format", "csv")
        #expect(status.stdout == "version,name,file,state,applied_at,checksum_matches\r\n"
            + MigrationSet.embedded(.sqlite).migrations.map { "\($0.version),\($0.name),\($0.fileName),pending,,\r\n" }.joined())
        #expect(status.stdout.contains("1,create_items,0001_create_items.sql,pending,,\r\n"))
    }

    @Test func exitCodeFlagFailsWhileMigrationsArePending() throws {
        #expect(try database.stockroom("migrate", "up", "--to", "1").status == 0)
        let pending = try database.stockroom("migrate", "status", "--exit-code")
        expectFailure(pending, code: .pending)
        let waiting = MigrationSet.embedded(.sqlite).migrations.dropFirst().map(\.fileName)
        #expect(waiting.first == "0002_create_drafts.sql")
        #expect(pending.errorMessage == "\(waiting.count) migration\(waiting.count == 1 ? " is" : "s are") not applied: \(waiting.joined(separator: ", "))")
        #expect(pending.lines.count == 1 + MigrationSet.embedded(.sqlite).migrations.count, "the status is still printed")

        #expect(try database.stockroom("migrate", "up").status == 0)
        #expect(try database.stockroom("migrate", "status", "--exit-code").status == 0)
    }

    @Test func upAppliesInOrderThenFindsNothingToDo() throws {
        let first = try database.stockroom("migrate", "up")
        #expect(first.status == 0, "\(first)")
        #expect(first.lines == MigrationSet.embedded(.sqlite).migrations.map { "Applied \($0.fileName)" })
        let second = try database.stockroom("migrate", "up")
        #expect(second.lines == ["The database is up to date."])
        #expect(try database.sqlite3("SELECT group_concat(version) FROM schema_migrations") == MigrationSet.embedded(.sqlite).versionList)
    }

    @Test func upToAVersionStopsThere() throws {
        let result = try database.stockroom("migrate", "up", "--to", "1")
        #expect(result.lines == ["Applied 0001_create_items.sql"])
        #expect(try database.stockroom("migrate", "up", "--to", "1").lines == ["Nothing to apply up to version 1."])
        #expect(try database.sqlite3("SELECT count(*) FROM sqlite_schema WHERE name = 'drafts'") == "0")
    }

    @Test func upToAnUnknownVersionIsAUsageErrorThatWritesNothing() throws {
        let unknown = MigrationSet.embedded(.sqlite).latestVersion + 1
        let result = try database.stockroom("migrate", "up", "--to", String(unknown))
        expectFailure(result, code: .usage, message: "--to \(unknown): no migration has that version (known: \(MigrationSet.embedded(.sqlite).migrations.map { String($0.version) }.joined(separator: ", ")))")
        #expect(!database.exists)
    }

    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let fresh = try database.stockroom("migrate", "up", "--dry-run")
        #expect(fresh.lines == MigrationSet.embedded(.sqlite).migrations.map { "Would apply \($0.fileName)" } + ["Dry run: nothing was written."])
        #expect(!database.exists)

        #expect(try database.stockroom("migrate", "up", "--to", "1").status == 0)
        let before = try database.contents()
        let partial = try database.stockroom("migrate", "up", "--dry-run")
        #expect(partial.lines == MigrationSet.embedded(.sqlite).migrations.dropFirst().map { "Would apply \($0.fileName)" } + ["Dry run: nothing was written."])
        #expect(try database.contents() == before)
        #expect(try database.sqlite3("SELECT count(*) FROM schema_migrations") == "1")
    }

    @Test func verifyPassesOnAFreshlyMigratedDatabase() throws {
        #expect(try database.stockroom("migrate", "up").status == 0)
        let verify = try database.stockroom("migrate", "verify")
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.lines == ["OK: \(MigrationSet.embedded(.sqlite).migrations.count) migrations applied, checksums match, schema matches."])
    }

    @Test func verifyNamesAnIndexDroppedAndATriggerAddedInTheSQLiteShell() throws {
        #expect(try database.stockroom("items", "add", "--name", "Keyboard", "--quantity", "3").status == 0)
        _ = try database.sqlite3("""
            DROP INDEX items_by_color_name;
            CREATE TRIGGER items_touch AFTER UPDATE ON items BEGIN SELECT 1; END;
            """)
        let before = try database.contents()
        let verify = try database.stockroom("migrate", "verify")
        expectFailure(verify, code: .dataError)
        #expect(verify.lines == [
            "index items_by_color_name on items is missing: the migrations create it but the database has none (dropped by hand?)",
            "trigger items_touch on items is in the database but no applied migration creates it (added by hand?)",
        ])
        #expect(verify.errorMessage.hasPrefix("the database does not match its migrations: index items_by_color_name on items is missing"))
        #expect(verify.errorMessage.hasSuffix("(and 1 more, listed on stdout)"))
        #expect(try database.contents() == before)
    }

    @Test func verifyOfAMissingFileIsNotFound() throws {
        let verify = try database.stockroom("migrate", "verify")
        expectFailure(verify, code: .notFound, message: "no database at \(database.path)")
        #expect(!database.exists)
    }

    @Test func schemaCommandPrintsTheCommittedSchemaFile() throws {
        let schema = try database.stockroom("migrate", "schema")
        #expect(schema.status == 0, "\(schema)")
        let committed = try String(contentsOf: Processes.packageRoot.appending(path: "Migrations/sqlite/schema.sql"), encoding: .utf8)
        #expect(schema.stdout == committed)
        #expect(!database.exists)
    }
}
