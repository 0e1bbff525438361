import Foundation

/// The full content of a database file as the `sqlite3` shell dumps it, to prove that a failed
/// command left the database exactly as it was.
public enum DatabaseSnapshot {
    /// `.dump` of the file (schema and every row), or the raw bytes' size for a non-database.
    public static func of(_ path: String) throws -> String {
        try Processes.sqlite3(path, ".dump").stdout
    }
}
