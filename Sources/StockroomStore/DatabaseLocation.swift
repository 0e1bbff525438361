import FoundationEssentials
import StockroomMigrations

/// Where an inventory lives: a SQLite file, or a PostgreSQL database named by a connection URI.
///
/// A `--db` or `STOCKROOM_DB` value starting with `postgresql://` or `postgres://` (the scheme
/// in any letter case) is PostgreSQL; anything else is a file path, as it always was.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file at this path.
    case file(String)
    /// A PostgreSQL database; the URI goes to libpq unchanged (several hosts, `sslmode`,
    /// `PGPASSFILE` and the other `PG*` variables all work).
    case postgres(String)

    /// Reads a `--db` value.
    public init(_ text: String) {
        self = DatabaseLocation.isServerURI(text) ? .postgres(text) : .file(text)
    }

    /// The engine that keeps the inventory there.
    public var engine: DatabaseEngine {
        switch self {
        case .file: .sqlite
        case .postgres: .postgres
        }
    }

    /// True for a file location with no file there yet (a server database is taken to exist
    /// until a connection says otherwise): a command that only resumes something can refuse
    /// before creating the file.
    public var isMissingFile: Bool {
        guard let path = filePath else { return false }
        return !FileManager.default.fileExists(atPath: path)
    }

    /// The file's path when the inventory is kept in a local file, nil on a server: what the
    /// store's file-only steps (backup, restore, a copy's same-file check, removing a file it
    /// created) ask, so that they ask it of one exhaustive switch.
    var filePath: String? {
        switch self {
        case .file(let path): path
        case .postgres: nil
        }
    }

    /// The path, or the URI with its password replaced by `***`: safe for messages and logs.
    public var description: String {
        switch self {
        case .file(let path): path
        case .postgres(let uri): DatabaseLocation.redacted(uri)
        }
    }
}
