import Foundation
@testable import StockroomStore
import StockroomMigrations
import Testing

/// Each of Stockroom's tables is described once, by one type in `Sources/StockroomStore/Tables/`
/// (`schema_migrations` by ``MigrationRunner``): these tests hold that type to the schema the
/// migrations really produce on both engines, and keep the table names from being spelled
/// anywhere else in the sources.
@Suite struct TableSchemaTests {
    /// Every table a type describes: its name, every column (in the order the type reads and
    /// binds them, which need not be the table's), its primary key.
    static let described: [(name: String, columns: [String], key: [String])] = [
        (ItemsTable.name, ItemsTable.insertLayout.columns.names, [ItemsTable.key]),
        (ItemEventsTable.name, ItemEventsTable.layout.columns.names + [ItemEventsTable.positionColumn], ItemEventsTable.keyColumns),
        (DraftsTable.name, DraftsTable.layout.columns.names, [DraftsTable.key]),
        (ItemEventContextTable.name, ItemEventContextTable.layout.columns.names, [ItemEventContextTable.key]),
        (ItemsSearchRangesTable.name, ItemsSearchRangesTable.columns, ItemsSearchRangesTable.key),
        (SyncIdentityTable.name, SyncIdentityTable.columns, [SyncIdentityTable.key]),
        (SyncAppliedTable.name, SyncAppliedTable.columns, [SyncAppliedTable.key]),
        (SyncOriginsTable.name, SyncOriginsTable.columns, [SyncOriginsTable.key]),
    ]

    /// The tables only a SQLite file has: a replica's (a server is only ever a hub).
    static let describedOnSQLite: [(name: String, columns: [String], key: [String])] = [
        (SyncReplicaTable.name, SyncReplicaTable.columns, [SyncReplicaTable.key]),
        (SyncIntentsTable.name, SyncIntentsTable.columns, [SyncIntentsTable.key]),
        (SyncRereadsTable.name, SyncRereadsTable.columns, [SyncRereadsTable.key]),
    ]

    /// The tables whose names must not be spelled outside their type.
    static var tableNames: [String] {
        (described + describedOnSQLite).map(\.name) + [ItemsSearchTable.name, MigrationRunner.tableName]
    }

    @Test(arguments: Engine.allCases)
    func eachTableTypeHasTheColumnsAndKeyOfTheMigratedTable(_ engine: Engine) throws {
        let test = try TestStore(engine)
        for table in Self.described + (engine == .sqlite ? Self.describedOnSQLite : []) {
            let (columns, key) = switch engine {
            case .sqlite:
                (try test.shell("SELECT name FROM pragma_table_info('\(table.name)') ORDER BY cid;").lines,
                 try test.shell("SELECT name FROM pragma_table_info('\(table.name)') WHERE pk > 0 ORDER BY pk;").lines)
            case .postgres:
                (try test.shell("""
                    SELECT column_name FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = '\(table.name)' ORDER BY ordinal_position;
                    """).lines,
                 try test.shell("""
                    SELECT k.column_name FROM information_schema.table_constraints c
                    JOIN information_schema.key_column_usage k
                      ON k.constraint_name = c.constraint_name AND k.constraint_schema = c.constraint_schema
                    WHERE c.table_schema = current_schema() AND c.table_name = '\(table.name)'
                      AND c.constraint_type = 'PRIMARY KEY'
                    ORDER BY k.ordinal_position;
                    """).lines)
            }
            // Statements name their columns, so the order may differ; the set may not.
            #expect(columns.sorted() == table.columns.sorted(), "\(engine): \(table.name)'s type and its migrated table differ")
            #expect(Set(table.columns).count == table.columns.count, "\(table.name)'s type names a column twice")
            #expect(key == table.key, "\(engine): \(table.name)'s key")
        }
    }

    @Test(arguments: Engine.allCases)
    func everyMigratedTableIsDescribedByAType(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let tables = switch engine {
        case .sqlite:
            // FTS5 keeps the search index in shadow tables named after it.
            try test.shell("""
                SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name;
                """).lines.filter { !ItemsSearchTable.shadowTableNames.contains($0) }
        case .postgres:
            try test.shell("""
                SELECT table_name FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name;
                """).lines
        }
        var expected = Self.described.map(\.name) + [MigrationRunner.tableName]
        if engine == .sqlite { expected += [ItemsSearchTable.name, ItemsSearchPositionsTable.name] + Self.describedOnSQLite.map(\.name) }
        #expect(tables == expected.sorted(), "\(engine): a table without its type in Sources/StockroomStore/Tables/")
    }

    /// A string literal naming a table outside its type would drift from it unnoticed. SQL that
    /// names a table (`FROM items`, `'items'`) is refused everywhere; a bare `"items"` only in
    /// the modules that reach a database, since the fronts' `"items"` are JSON keys, HTML ids
    /// and a command's name, never SQL.
    /// A table a migration adds is `restore`'s to replace, not another program's to count.
    @Test func restoreOwnsEveryDescribedTable() {
        for table in Self.described + Self.describedOnSQLite {
            #expect(StockroomTables.owns(table.name), "\(table.name) is not in StockroomTables.described")
        }
    }

    @Test func noTableNameIsSpelledOutsideItsType() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let names = Self.tableNames.joined(separator: "|")
        let sql = try Regex("\\b(FROM|INTO|UPDATE|JOIN|TABLE|TRUNCATE|ANALYZE|ON)\\s+(\(names))\\b|'(\(names))'")
        let bare = try Regex("\"(\(names))\"")
        let fronts = ["stockroom/", "StockroomServer/"]
        // Where each table is described (and the migration runner, which owns its own table).
        let owners = ["StockroomStore/Tables/", "StockroomMigrations/Engines/SQLite/MigrationRunner.swift"]
        var checked = 0
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)!
        while let file = files.nextObject() as? String {
            guard file.hasSuffix(".swift"), !owners.contains(where: { file.hasPrefix($0) }) else { continue }
            checked += 1
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                let isFront = fronts.contains(where: { file.hasPrefix($0) })
                if line.contains(sql) || (!isFront && line.contains(bare)) {
                    offenders.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(checked > 100, "the sources were not found under \(sources.path)")
        #expect(offenders.isEmpty, "table names spelled outside their type:\n\(offenders.joined(separator: "\n"))")
    }
}
