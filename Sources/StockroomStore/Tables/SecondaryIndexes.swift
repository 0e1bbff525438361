import FoundationEssentials

/// The secondary indexes of some tables (neither a key nor a unique constraint), each with the
/// SQL that builds it, as the engine's catalog holds them: dropped before a bulk load and built
/// again after it, as a bulk load should. Import (into an empty `items`) and copy (every table)
/// both rebuild through this one type.
struct SecondaryIndexes {
    /// The indexes, by name, with the statement that creates each.
    let indexes: [(name: String, sql: String)]

    /// Reads the secondary indexes of `tables` from `connection`'s catalog.
    init<Connection: StoreConnection>(of tables: [String], on connection: Connection) throws {
        let list = tables.map { "'\($0)'" }.joined(separator: ", ")
        let sql = switch connection.dialect {
        case .sqlite:
            // An index with no SQL is a key or UNIQUE constraint's own.
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN (\(list)) AND sql IS NOT NULL ORDER BY name"
        case .postgres:
            """
            SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
            WHERE t.relname IN (\(list)) AND t.relnamespace = current_schema()::regnamespace
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
            ORDER BY i.relname
            """
        }
        indexes = try connection.withStatement(sql) { statement in
            var found: [(name: String, sql: String)] = []
            while try statement.step() { found.append((statement.text(at: 0), statement.text(at: 1))) }
            return found
        }
    }

    /// Drops every index, running each statement with `execute`.
    func drop(_ execute: (String) throws -> Void) throws {
        for index in indexes { try execute("DROP INDEX \(SQLIdentifier.quoted(index.name))") }
    }

    /// Builds every index again, running each statement with `execute`.
    func create(_ execute: (String) throws -> Void) throws {
        for index in indexes { try execute(index.sql) }
    }
}

/// Names in SQL text.
enum SQLIdentifier {
    /// `name` as a quoted SQL identifier (quotes inside doubled), the same on both engines; also
    /// how an FTS5 query writes a string.
    ///
    /// By Unicode scalars, not `Character`s: a quote followed by a combining mark is one
    /// `Character`, which a character-wise replacement would leave undoubled (and the quote
    /// would then end the identifier early).
    static func quoted(_ name: String) -> String {
        var quoted = "\""
        for scalar in name.unicodeScalars {
            if scalar == "\"" { quoted.unicodeScalars.append("\"") }
            quoted.unicodeScalars.append(scalar)
        }
        quoted.unicodeScalars.append("\"")
        return quoted
    }
}
