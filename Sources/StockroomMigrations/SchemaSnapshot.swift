import FoundationEssentials
import Glibc
import SQLiteCore

/// The engines Stockroom keeps an inventory in, each with its own folder of migrations.
public enum DatabaseEngine: String, Sendable, CaseIterable {
    /// A SQLite file: `Migrations/sqlite/`.
    case sqlite
    /// A PostgreSQL server: `Migrations/postgres/`.
    case postgres
}

/// The schema of a database as SQLite records it in `sqlite_schema`: every table, view, index
/// and trigger with the SQL that created it (on PostgreSQL, as its catalog describes it: see
/// ``init(reading:)-(Connection)``).
///
/// SQLite's own objects (`sqlite_sequence`, `sqlite_stat1`), the indexes it makes for UNIQUE
/// and PRIMARY KEY constraints, and the shadow tables a virtual table makes for itself (FTS5's
/// `items_search_data`, ...) are left out: they follow from the tables' SQL.
public struct SchemaSnapshot: Sendable, Equatable {
    /// One schema object.
    public struct Object: Sendable, Equatable {
        /// `table`, `view`, `index` or `trigger`.
        public let type: String
        /// The object's name.
        public let name: String
        /// The table an index or trigger belongs to (a table's or view's own name).
        public let tableName: String
        /// The `CREATE` statement as SQLite stored it, comments included.
        public let sql: String

        /// The SQL as tokens, without comments or layout and with unquoted words uppercased, so
        /// two objects compare equal when only formatting tells them apart.
        public var normalisedTokens: [String] { SQLTokens.normalised(sql) }

        /// How the object is named in messages: `index items_by_name on items`.
        public var label: String {
            type == "index" || type == "trigger" ? "\(type) \(name) on \(tableName)" : "\(type) \(name)"
        }
    }

    /// Tables, then views, indexes and triggers, each group ordered by table and name, so the
    /// order does not depend on the order the migrations created them in.
    public let objects: [Object]
    /// The engine the schema was read from.
    public let engine: DatabaseEngine

    init(objects: [Object], engine: DatabaseEngine) {
        self.objects = objects
        self.engine = engine
    }

    /// Reads the schema of `database`.
    public init(reading database: Database) throws {
        engine = .sqlite
        objects = try database.withStatement("""
            SELECT type, name, tbl_name, sql FROM sqlite_schema
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND name NOT IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow')
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END,
                     tbl_name, name
            """) { statement in
            var objects: [Object] = []
            while try statement.step() {
                objects.append(Object(type: statement.text(at: 0), name: statement.text(at: 1),
                                      tableName: statement.text(at: 2), sql: statement.text(at: 3)))
            }
            return objects
        }
    }

    /// The schema that `migrations` produce, applied by a ``MigrationRunner`` to a scratch
    /// in-memory database.
    ///
    /// - Throws: ``MigrationError`` when a migration fails there.
    public static func produced(by migrations: MigrationSet) throws -> SchemaSnapshot {
        let scratch = try Database(path: ":memory:")
        try MigrationRunner(database: scratch, migrations: migrations).migrate()
        return try SchemaSnapshot(reading: scratch)
    }

    /// What sets this (live) schema apart from `expected`: objects missing here, objects only
    /// here, and objects whose SQL differs beyond formatting. Empty when they match.
    public func differences(from expected: SchemaSnapshot) -> [SchemaDifference] {
        let live = Dictionary(objects.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let wanted = Dictionary(expected.objects.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [SchemaDifference] = []
        for object in expected.objects {
            guard let actual = live[object.name.lowercased()] else {
                differences.append(.missing(object))
                continue
            }
            if actual.type != object.type || actual.normalisedTokens != object.normalisedTokens {
                differences.append(.changed(expected: object, actual: actual))
            }
        }
        for object in objects where wanted[object.name.lowercased()] == nil {
            differences.append(.unexpected(object))
        }
        return differences
    }

    /// The schema as a SQL script: the text of `Migrations/<engine>/schema.sql`.
    public var script: String {
        var text = switch engine {
        case .sqlite: """
            -- The schema that Migrations/sqlite/ produce, as SQLite stores it after the last migration.
            -- Generated by `stockroom migrate schema` (run scripts/update-schema.sh); do not edit.
            -- A test fails when this file is stale, so every schema change shows up here in review.

            """
        case .postgres: """
            -- The schema that Migrations/postgres/ produce, as PostgreSQL's catalog describes it after
            -- the last migration (tables rebuilt from their columns and constraints).
            -- Generated on a throwaway server (run scripts/update-schema.sh); do not edit.
            -- A test fails when this file is stale, so every schema change shows up here in review.

            """
        }
        for object in objects {
            text += "\n" + object.sql + ";\n"
        }
        return text
    }
}
