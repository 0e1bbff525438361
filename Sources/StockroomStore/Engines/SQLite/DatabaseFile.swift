import FoundationEssentials
import Glibc
import PostgresCore
import SQLiteCore
import StockroomMigrations

/// How every command opens the database file: look first, decide, and only then write.
///
/// - Reading never writes: the file is opened `queryOnly` (never created, its journal mode
///   kept, no migration applied), so `items list` on a backup copy or an older database leaves
///   it byte-identical.
/// - Writing inspects the file before the first byte is written (its tables, its applied
///   migrations) and refuses a foreign file, a database from a newer Stockroom or one whose
///   migrations were edited while the file is still untouched; only then does it apply
///   pending migrations. An existing file in a rollback-journal mode (restored, or made by
///   another tool) is switched to WAL only once a write transaction has committed a change
///   (`Database.prepareForWritingOnFirstChange`): a command refused inside its transaction
///   rolls back and leaves the file byte-identical, journal mode included.
/// - A missing file is created whole: the migrations run in a temporary file beside it, which
///   is hard-linked into place only when complete, so a failed first command (a full disk, a
///   failing migration) leaves nothing behind, and processes racing to create the file never
///   see it half made. The one that links first wins; the others use its file. A create killed
///   outright (SIGKILL) leaves its unlocked temporary file, which the next write removes.
package enum DatabaseFile {
    /// What an inspection found in a file that is a SQLite database.
    public struct Inspection: Sendable {
        /// The migrations recorded as applied, in version order.
        public let applied: [AppliedMigration]
        /// When the file has no `schema_migrations` table: its tables, sorted (empty for a new file).
        public let tablesWithoutMigrations: [String]

        /// True for a file without tables: a 0-byte file or an empty database, adopted as new.
        public var isNew: Bool { applied.isEmpty && tablesWithoutMigrations.isEmpty }
        /// True for a SQLite database with tables but no Stockroom migrations.
        public var isForeign: Bool { !tablesWithoutMigrations.isEmpty }
        /// The newest applied version, 0 for a new file.
        public var version: Int { applied.last?.version ?? 0 }
    }

    /// Which findings a reader accepts instead of refusing.
    public struct Acceptance: OptionSet, Sendable {
        /// The option bits.
        public let rawValue: Int
        /// Creates a set from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A SQLite file that is not a Stockroom database (`query`, `check`).
        public static let foreign = Acceptance(rawValue: 1)
        /// Applied migrations that are edited, unknown or skipped (`migrate status`/`verify`
        /// report them instead of refusing).
        public static let untrustedMigrations = Acceptance(rawValue: 2)
    }

    /// Opens the file for reading only: nothing is created, converted or migrated.
    ///
    /// - Returns: nil when there is no file at `path` (none is created).
    /// - Throws: ``DatabaseFileError/foreign(path:tables:)`` unless accepted;
    ///   `MigrationError` for untrusted migrations unless accepted;
    ///   ``DatabaseFileError/cannotRead(path:error:)`` when the file exists but cannot be read;
    ///   `SQLiteError` (`SQLITE_NOTADB`) for a file that is not a database.
    public static func openForReading(
        path: String, busyTimeoutMilliseconds: Int32, migrations: MigrationSet = .embedded(.sqlite),
        accepting acceptance: Acceptance = []
    ) throws -> (database: Database, inspection: Inspection)? {
        var attempt = 0
        var opened: Database?
        while opened == nil {
            do {
                opened = try Database(path: path, mode: .queryOnly,
                                      configuration: .init(busyTimeout: .milliseconds(busyTimeoutMilliseconds)))
            } catch let error as SQLiteError where error.isOpenOrPermissionProblem {
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                // Another process may have created the file between the open and this check.
                attempt += 1
                if attempt > 1 { throw DatabaseFileError.cannotRead(path: path, error: error) }
            }
        }
        guard let database = opened else { return nil }
        let inspection: Inspection
        do {
            inspection = try inspect(database, migrations: migrations)
        } catch let error as SQLiteError where error.isOpenOrPermissionProblem {
            throw DatabaseFileError.cannotRead(path: path, error: error)
        }
        try refuse(inspection, path: path, runner: MigrationRunner(database: database, migrations: migrations), accepting: acceptance)
        return (database, inspection)
    }

    /// Opens the file for writing, creating it when missing, and applies pending migrations
    /// (up to `target` when given).
    ///
    /// Nothing is written to a file that is refused: a foreign file, a database with
    /// migrations this binary does not know or that were edited, a file that is not a database.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - busyTimeoutMilliseconds: how long to wait for another process's lock.
    ///   - migrations: the migrations the file must have.
    ///   - target: the last version to apply; nil for all.
    ///   - onApplied: called for each migration this call applied, once it is in the file.
    /// - Throws: ``DatabaseFileError``, `MigrationError` or `SQLiteError`.
    public static func openForWriting(
        path: String, busyTimeoutMilliseconds: Int32, migrations: MigrationSet = .embedded(.sqlite),
        upTo target: Int? = nil, onApplied: (Migration) -> Void = { _ in }
    ) throws -> Database {
        try openForWriting(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, migrations: migrations,
                           upTo: target, checkFirst: nil, onApplied: onApplied)
    }

    /// ``openForWriting(path:busyTimeoutMilliseconds:migrations:upTo:onApplied:)``, handing the
    /// file's migration status to `checkFirst` (when given) before anything is refused,
    /// migrated or written: it may refuse the file itself.
    static func openForWriting(
        path: String, busyTimeoutMilliseconds: Int32, migrations: MigrationSet = .embedded(.sqlite),
        upTo target: Int? = nil, checkFirst: (([MigrationStatusEntry]) throws -> Void)?,
        onApplied: (Migration) -> Void = { _ in }
    ) throws -> Database {
        let configuration = Database.Configuration(busyTimeout: .milliseconds(busyTimeoutMilliseconds))
        if !FileManager.default.fileExists(atPath: path),
           let created = try createWhole(path, configuration: configuration, migrations: migrations, upTo: target, onApplied: onApplied) {
            created.forEach(onApplied)
        }
        let database = try Database(path: path, mode: .readWriteInspectFirst, configuration: configuration)
        let inspection = try inspect(database, migrations: migrations)
        if let checkFirst { try checkFirst(try MigrationRunner(database: database, migrations: migrations).status()) }
        try refuse(inspection, path: path, runner: MigrationRunner(database: database, migrations: migrations), accepting: [])
        // What a killed first create left beside the file: housekeeping, never a reason to fail.
        try? DurableFile.removeStaleTemporaries(of: path)
        if inspection.isNew {
            // A new file is written whatever the command does next (its header, then the
            // migrations), so it is switched to WAL now, as a file made by `createWhole` is.
            try giveEmptyFileAHeader(database)
            try database.prepareForWriting()
        } else {
            // An existing file in a rollback-journal mode keeps it until a committed change:
            // switching it here, before the command's transaction, changed the file of a
            // command refused inside it (see `Database.prepareForWritingOnFirstChange`).
            try database.prepareForWritingOnFirstChange()
        }
        let pending = migrations.migrations.filter { $0.version > inspection.version && $0.version <= target ?? .max }
        if !pending.isEmpty {
            try MigrationRunner(database: database, migrations: migrations).migrate(upTo: target, onApplied: onApplied)
        }
        return database
    }

    /// Reads the applied migrations, or the tables of a file that has none. Retried while
    /// SQLite reports BUSY without waiting (another process recovering the WAL).
    static func inspect(_ database: Database, migrations: MigrationSet) throws -> Inspection {
        let runner = MigrationRunner(database: database, migrations: migrations)
        return try database.retryingWhileBusy {
            // The usual case costs two small reads; a file without migrations is read again in
            // one snapshot, so a table another process is creating right now is never taken
            // for a foreign one.
            let applied = try runner.appliedMigrations()
            if !applied.isEmpty { return Inspection(applied: applied, tablesWithoutMigrations: []) }
            return try database.readTransaction {
                let applied = try runner.appliedMigrations()
                if try !applied.isEmpty || database.tableExists(MigrationRunner.tableName) {
                    return Inspection(applied: applied, tablesWithoutMigrations: [])
                }
                return Inspection(applied: [], tablesWithoutMigrations: try tableNames(in: database))
            }
        }
    }

    /// The file's own tables (SQLite's internal ones left out), sorted: what a foreign file is
    /// named by in ``DatabaseFileError/foreign(path:tables:)``.
    static func tableNames(in database: Database) throws -> [String] {
        try database.withStatement(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        ) { statement in
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0)) }
            return names
        }
    }

    private static func refuse(_ inspection: Inspection, path: String, runner: MigrationRunner, accepting acceptance: Acceptance) throws {
        if inspection.isForeign, !acceptance.contains(.foreign) {
            throw DatabaseFileError.foreign(path: path, tables: inspection.tablesWithoutMigrations)
        }
        if !acceptance.contains(.untrustedMigrations) {
            try runner.validate(inspection.applied)
        }
    }

    /// A 0-byte file gets its first page (and an empty `schema_migrations`) through an
    /// ordinary rollback-journal transaction before anything switches it to WAL: a WAL next to a
    /// database of zero pages is not a state SQLite lets several processes share safely.
    private static func giveEmptyFileAHeader(_ database: Database) throws {
        let pages = try database.withStatement("PRAGMA page_count") { try $0.step() ? $0.int(at: 0) : 0 }
        guard pages == 0 else { return }
        try database.writeTransaction { try database.execute(MigrationRunner.createTableSQL) }
    }

    /// Builds the database in a temporary file beside `path` and links it into place.
    ///
    /// - Returns: the migrations applied, or nil when another process created `path` first
    ///   (its file is used instead, and the temporary one removed).
    private static func createWhole(_ path: String, configuration: Database.Configuration,
                                    migrations: MigrationSet, upTo target: Int?,
                                    onApplied: (Migration) -> Void) throws -> [Migration]? {
        // Locked while this process builds it, so that the next command tells it from the
        // litter of a create that was killed (SIGKILL), and removes only the latter; those
        // are removed here first. 0644 before the umask: SQLite's own mode for a new file.
        let temporaryFile: TemporaryFile
        do {
            temporaryFile = try DurableFile.createTemporary(besides: path, infix: "new-", mode: 0o644)
        } catch let error as BackupError {
            throw DatabaseFileError.cannotCreate(path: path, error: SQLiteError(extendedCode: 14, message: error.description))
        }
        let temporary = temporaryFile.path
        defer { temporaryFile.removeUnlessMoved() }
        var applied: [Migration] = []
        var failure: (any Error)?
        do {
            let database = try Database(path: temporary, mode: .readWriteCreate, configuration: configuration)
            do {
                try MigrationRunner(database: database, migrations: migrations).migrate(upTo: target) { applied.append($0) }
            } catch {
                // Like on an existing file, the migrations before the failing one stay applied
                // (`migrate up` has said so); with none applied, nothing is left behind.
                guard !applied.isEmpty else { throw error }
                failure = error
            }
            if applied.isEmpty { try giveEmptyFileAHeader(database) }
            // Closing the only connection checkpoints the WAL into the file and removes it.
        } catch let error as SQLiteError where error.isOpenOrPermissionProblem {
            throw DatabaseFileError.cannotCreate(path: path, error: error)
        }
        if let failure {
            if (try? place(temporary, at: path)) == true { applied.forEach(onApplied) }
            throw failure
        }
        return try place(temporary, at: path) ? applied : nil
    }

    /// Syncs `temporary` and hard-links it to `path`; false when `path` appeared meanwhile.
    private static func place(_ temporary: String, at path: String) throws -> Bool {
        do {
            try DurableFile.sync(temporary)
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { return false }
                throw DatabaseFileError.cannotCreate(path: path, error: SQLiteError(extendedCode: 14, message: String(cString: strerror(errno))))
            }
            try DurableFile.syncFolder(of: path)
        } catch let error as BackupError {
            throw DatabaseFileError.cannotCreate(path: path, error: SQLiteError(extendedCode: 10, message: error.description))
        }
        return true
    }
}

/// Why a database file cannot be used. Each leaves the file as it was.
public enum DatabaseFileError: Error, Sendable, CustomStringConvertible {
    /// A SQLite database with tables but no Stockroom migrations: another program's file.
    case foreign(path: String, tables: [String])
    /// The file exists but cannot be read (permissions, a read-only folder for a WAL file).
    case cannotRead(path: String, error: SQLiteError)
    /// The file does not exist and cannot be created (a missing or read-only folder, a full disk).
    case cannotCreate(path: String, error: SQLiteError)
    /// The database's schema is older than this command can read.
    case needsMigration(path: String, version: Int)

    /// One line naming the file and what to do, for the `error:` line.
    public var description: String {
        switch self {
        case .foreign(let path, let tables):
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return "\(Self.name(path)) is a SQLite database but not a Stockroom one (tables: \(shown)); nothing was changed"
        case .cannotRead(let path, let error):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if access(path, R_OK) != 0 {
                return "cannot read \(path): \(String(cString: strerror(errno))) (\(error.codeName)); nothing was changed"
            }
            if access(folder, W_OK) != 0 {
                return "cannot read \(path): its folder is read-only and SQLite needs to create \(URL(fileURLWithPath: path).lastPathComponent)-shm there to read a WAL database (\(error.codeName)); nothing was changed"
            }
            return "cannot read \(path): \(error.message) (\(error.codeName)); nothing was changed"
        case .cannotCreate(let path, let error):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isFolder = false
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder {
                return "cannot create the database \(path): the folder \(folder) does not exist (\(error.codeName))"
            }
            if access(folder, W_OK) != 0 {
                return "cannot create the database \(path): the folder \(folder) is not writable (\(error.codeName))"
            }
            return "cannot create the database \(path): \(error.message) (\(error.codeName)); nothing was left behind"
        case .needsMigration(let path, let version):
            return "\(Self.name(path)) has schema version \(version), older than this command reads; run `stockroom migrate up` first"
        }
    }

    private static func name(_ path: String) -> String {
        // A PostgreSQL location arrives already redacted (DatabaseLocation's description).
        ConnectionString.isPostgresURI(path) ? path : URL(fileURLWithPath: path).lastPathComponent
    }
}

extension SQLiteError {
    /// `SQLITE_CANTOPEN`, `SQLITE_PERM`, `SQLITE_READONLY` or `SQLITE_AUTH`-style refusals by
    /// the file system, as opposed to damage or locking.
    var isOpenOrPermissionProblem: Bool { [14, 3, 8].contains(primaryCode) }
}
