import Foundation
import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// The product's own `Migrations/sqlite/schema.sql` is current.
@Suite struct SchemaFileTests {
    let folder = Processes.packageRoot.appending(path: "Migrations/sqlite")

    @Test func schemaSQLIsTheSchemaTheMigrationsProduce() throws {
        let committed = try String(contentsOf: folder.appending(path: "schema.sql"), encoding: .utf8)
        let produced = try SchemaSnapshot.produced(by: .embedded(.sqlite)).script
        #expect(committed == produced, "Migrations/sqlite/schema.sql is stale: run scripts/update-schema.sh and commit it")
    }

    @Test func schemaSQLRecreatesTheSameSchema() throws {
        let committed = try String(contentsOf: folder.appending(path: "schema.sql"), encoding: .utf8)
        let loaded = try scratchDatabase()
        try loaded.execute(committed)
        #expect(try SchemaSnapshot(reading: loaded) == SchemaSnapshot.produced(by: .embedded(.sqlite)))
    }
}
