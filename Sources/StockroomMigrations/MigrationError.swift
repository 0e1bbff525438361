import PostgresCore
import SQLiteCore

/// Why migrations could not be applied or verified. Each case leaves the database untouched.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// A migration file name does not follow `NNNN_name.sql`.
    case invalidFileName(String)
    /// Two migration files share a version.
    case duplicateVersion(Int, String, String)
    /// An applied migration's file changed after it was applied.
    case checksumMismatch(version: Int, fileName: String, recorded: String, current: String)
    /// The database records versions this binary does not know: it was migrated by a newer Stockroom.
    case unknownAppliedVersions([Int])
    /// Known migrations older than the newest applied one were never applied.
    case gap(missing: [Int])
    /// A statement of a migration failed; the migration was rolled back.
    case statementFailed(fileName: String, statement: String, error: SQLiteError)
    /// A migration failed on a PostgreSQL server; it was rolled back.
    case serverStatementFailed(fileName: String, error: PostgresError)
    /// A migration left rows that violate a foreign key; it was rolled back.
    case foreignKeyViolation(fileName: String, table: String, rowCount: Int)

    /// One line naming the file, the statement and SQLite's message where they apply.
    public var description: String {
        switch self {
        case .invalidFileName(let name):
            "migration file '\(name)' must be named NNNN_name.sql, with a positive version number"
        case .duplicateVersion(let version, let first, let second):
            "migrations '\(first)' and '\(second)' share version \(version)"
        case .checksumMismatch(let version, let fileName, let recorded, let current):
            "applied migration \(version) (\(fileName)) was modified after it was applied: recorded checksum \(recorded.prefix(12))…, file now \(current.prefix(12))…"
        case .unknownAppliedVersions(let versions):
            "the database has migration\(versions.count == 1 ? "" : "s") \(versions.map(String.init).joined(separator: ", ")) that this stockroom does not know; it was created by a newer version"
        case .gap(let missing):
            "the database skipped migration\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) although later ones are applied"
        case .statementFailed(let fileName, let statement, let error):
            "migration \(fileName) failed at `\(statement.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").prefix(160))`: \(error.message) (\(error.codeName)); rolled back"
        case .serverStatementFailed(let fileName, let error):
            "migration \(fileName) failed: \(error.sqlState.map { "\($0): " } ?? "")\(error.message)\(error.constraintName.map { " (constraint \($0))" } ?? ""); rolled back"
        case .foreignKeyViolation(let fileName, let table, let rowCount):
            "migration \(fileName) left \(rowCount) row\(rowCount == 1 ? "" : "s") in table '\(table)' violating a foreign key; rolled back"
        }
    }
}
