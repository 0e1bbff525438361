
/// Why a backup or restore did not happen. In every case the live database is unchanged and no
/// partial file is left behind.
public enum BackupError: Error, Sendable, CustomStringConvertible {
    /// There is no database file at the path.
    case databaseMissing(String)
    /// `operation` (`backup`, `restore`) was asked of a PostgreSQL database (named without its
    /// password): a server is copied with its own tools, and Stockroom grows no backup format
    /// of its own for it.
    case serverDatabase(String, operation: String)
    /// SQLite cannot read the file: it is not a database, or it is damaged.
    case unreadable(String, reason: String)
    /// The file is an SQLite database without Stockroom's `schema_migrations` table; `tables`
    /// are the ones it has (none for an empty database).
    case notStockroomDatabase(String, tables: [String])
    /// The copy would be written over the database it is copied from.
    case sameFile(String)
    /// The destination exists and `--force` was not given.
    case destinationExists(String)
    /// The destination cannot be created: its folder is missing, unwritable, or it is a folder.
    case cannotCreate(String, reason: String)
    /// A file operation on the copy failed.
    case fileSystem(String, operation: String, reason: String)
    /// The copy is at its path, but syncing its folder failed: a power cut could still lose it.
    case placedButNotSynced(String, reason: String)
    /// The copy is at its path, but its temporary name could not be removed.
    case placedWithLitter(String, temporary: String, reason: String)
    /// The disk filled while writing the copy; nothing was written at the path.
    case diskFull(String)
    /// The finished copy showed damage to `integrity_check`, or does not match its source.
    case copyDamaged(String, source: String, problems: [String])
    /// The file to restore from did not pass ``DatabaseCheck``.
    case sourceRejected(String, problems: [DatabaseCheck.Problem])
    /// The live database holds items, drafts or tables of its own, and `--force` was not given.
    case liveDatabaseNotEmpty(String, itemCount: Int, draftCount: Int, otherTables: [String])

    /// True when the failure says a file is damaged rather than that a rule or a request was
    /// refused.
    public var isCorruption: Bool {
        switch self {
        case .unreadable, .copyDamaged: true
        case .sourceRejected(_, let problems): problems.contains { $0.kind == .integrity }
        default: false
        }
    }

    /// One line for the user.
    public var description: String {
        switch self {
        case .databaseMissing(let path):
            "no database at \(path)"
        case .serverDatabase(let location, let operation):
            "stockroom \(operation) works on SQLite files; for the PostgreSQL database \(location) use pg_dump/pg_restore or pg_basebackup (docs/postgresql.md, \"Backups on PostgreSQL\")"
        case .unreadable(let path, let reason):
            "\(path) cannot be read as an SQLite database: \(reason)"
        case .notStockroomDatabase(let path, let tables) where tables.isEmpty:
            "\(path) is an empty SQLite database (it has no tables); there is nothing to back up"
        case .notStockroomDatabase(let path, let tables):
            // The same words as every other command's refusal: one message, one place.
            DatabaseFileError.foreign(path: path, tables: tables).description
        case .sameFile(let path):
            "\(path) is the database itself; choose another file"
        case .destinationExists(let path):
            "\(path) already exists; pass --force to replace it"
        case .cannotCreate(let path, let reason):
            "cannot create \(path): \(reason)"
        case .fileSystem(let path, let operation, let reason):
            "cannot \(operation) \(path): \(reason)"
        case .placedButNotSynced(let path, let reason):
            "\(path) is written but the folder could not be synced (\(reason)); it may not survive a power cut, run the backup again"
        case .placedWithLitter(let path, let temporary, let reason):
            "\(path) is written but the temporary file \(temporary) could not be removed (\(reason)); remove it by hand"
        case .diskFull(let path):
            "the disk is full: could not write the copy for \(path); nothing was written there, free some space and try again"
        case .copyDamaged(let path, let source, let problems):
            "the copy for \(path) failed its check (\(BackupError.summarise(problems))); nothing was written there; the source may be damaged, see `stockroom check --db \(source)`"
        case .sourceRejected(let path, let problems):
            "\(path) cannot be restored: \(BackupError.summarise(problems.map(\.description))); see `stockroom check --db \(path)`"
        case .liveDatabaseNotEmpty(let path, let items, let drafts, let otherTables):
            "\(path) holds \(DatabaseSummary.itemsAndDrafts(items, drafts))"
                + (otherTables.isEmpty ? "" : " and tables Stockroom does not own (\(otherTables.joined(separator: ", ")))")
                + "; pass --force to replace its content (a dated safety copy is kept)"
        }
    }

    private static func summarise(_ problems: [String]) -> String {
        guard let first = problems.first else { return "no details" }
        return problems.count == 1 ? first : "\(first); and \(problems.count - 1) more"
    }
}
