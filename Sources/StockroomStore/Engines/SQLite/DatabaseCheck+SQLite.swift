import FoundationEssentials
import SQLiteCore
import StockroomMigrations

extension DatabaseCheck {
    /// Checks `database` (see ``check(_:migrations:)``): SQLite's `integrity_check` and
    /// `foreign_key_check` first, then what every engine checks.
    static func run(on database: Database, migrations: MigrationSet = .embedded(.sqlite)) throws -> Report {
        // An older schema is checked as it is, its missing columns read as NULL, as a read
        // command reads it (a file whose migrations cannot be read is reported by the check).
        if let version = try? MigrationRunner(database: database, migrations: migrations).appliedMigrations().last?.version {
            try database.readOlderColumns(schemaVersion: version)
        }
        return try check(database, migrations: migrations)
    }

    /// Checks the file at `path`, the busy timeout in milliseconds.
    @available(*, deprecated, renamed: "run(onFileAt:busyTimeout:migrations:)")
    public static func run(onFileAt path: String, busyTimeoutMilliseconds: Int32,
                           migrations: MigrationSet = .embedded(.sqlite)) throws -> Report {
        try run(onFileAt: path, busyTimeout: .milliseconds(busyTimeoutMilliseconds), migrations: migrations)
    }

    /// Opens the file at `path` read-only and checks it. A file SQLite cannot open as a
    /// database is reported as an integrity problem, like damage found inside one.
    ///
    /// - Throws: ``BackupError/databaseMissing(_:)`` when there is no file (none is created);
    ///   `SQLiteError` when the check cannot run.
    public static func run(onFileAt path: String, busyTimeout: Duration = .seconds(5),
                           migrations: MigrationSet = .embedded(.sqlite)) throws -> Report {
        guard FileManager.default.fileExists(atPath: path) else { throw BackupError.databaseMissing(path) }
        let database: Database
        do {
            database = try Database(path: path, mode: .queryOnly, configuration: .init(busyTimeout: busyTimeout))
        } catch let error as SQLiteError where error.isCorruption {
            return Report(problems: [unreadable(error)], summary: nil, latestKnownVersion: migrations.latestVersion)
        }
        return try run(on: database, migrations: migrations)
    }

    fileprivate static func unreadable(_ error: SQLiteError) -> Problem {
        Problem(kind: .integrity, message: "SQLite cannot read the file: \(error.message) (\(error.codeName))")
    }

    /// `integrity_check` also tests the schema's constraints row by row; those failures say
    /// the content breaks a rule, not that the file is damaged.
    fileprivate static func integrityProblem(_ message: String) -> Problem {
        Problem(kind: isConstraintFailure(message) ? .constraint : .integrity, message: message)
    }
}

extension Database: CheckedConnection {
    func storageProblems() throws -> [DatabaseCheck.Problem] {
        try integrityProblems().map(DatabaseCheck.integrityProblem)
            + foreignKeyViolations().map { DatabaseCheck.Problem(kind: .foreignKey, message: $0.description) }
    }

    func ruleProblems() throws -> [DatabaseCheck.Problem] { [] }

    func selectForCheck(table: String, columns: String) throws -> DatabaseCheck.TableSelection<SQLiteCore.Statement> {
        do {
            // item_events is WITHOUT ROWID: its key gives its order.
            let order = table == ItemEventsTable.name ? ItemEventsTable.keyList : "rowid"
            return .statement(try prepare("SELECT \(columns) FROM \(table) ORDER BY \(order)"))
        } catch let error as SQLiteError where !error.isCorruption && !error.isBusy {
            // A column this binary reads is missing: the table has another shape.
            return .problem(DatabaseCheck.Problem(kind: .rows, message: "table \(table) cannot be read by this stockroom: \(error.message)"))
        }
    }

    func migrationRunner(_ migrations: MigrationSet) -> any MigrationRunning {
        MigrationRunner(database: self, migrations: migrations)
    }

    static func unreadableProblem(_ error: any Error) -> DatabaseCheck.Problem? {
        guard let error = error as? SQLiteError, error.isCorruption else { return nil }
        return DatabaseCheck.unreadable(error)
    }
}
