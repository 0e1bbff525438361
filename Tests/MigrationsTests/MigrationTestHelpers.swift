import SQLiteCore
import StockroomMigrations
import StockroomTestSupport

/// A set built from fixture files.
func migrationSet(_ files: (fileName: String, sql: String)...) throws -> MigrationSet {
    try MigrationSet(files.map { try Migration(fileName: $0.fileName, sql: $0.sql) })
}

/// A fresh in-memory database.
func scratchDatabase() throws -> Database {
    try Database(path: ":memory:")
}

extension Database {
    /// The single integer a query returns.
    func integer(_ sql: String) throws -> Int {
        try withStatement(sql) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// The first column of every row, as text.
    func texts(_ sql: String) throws -> [String] {
        try withStatement(sql) { statement in
            var values: [String] = []
            while try statement.step() { values.append(statement.text(at: 0)) }
            return values
        }
    }

    /// Whether a table, index, view or trigger of that name exists.
    func hasObject(_ name: String) throws -> Bool {
        try withStatement("SELECT count(*) FROM sqlite_schema WHERE name = ?") { statement in
            try statement.bind(name, at: 0)
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
    }
}
