import FoundationEssentials
import StockroomMigrations
import TextFormats

/// An ordered set of migrations for one engine (`MigrationSet/embedded(_:)`, or a folder's).
public typealias MigrationSet = StockroomMigrations.MigrationSet
/// One migration file: its version, name and SQL.
public typealias Migration = StockroomMigrations.Migration
/// One line of ``StoreMigrations/status()``.
public typealias MigrationStatusEntry = StockroomMigrations.MigrationStatusEntry
/// What ``StoreMigrations/verify()`` found.
public typealias MigrationVerification = StockroomMigrations.MigrationVerification
/// The engines an inventory can live in.
public typealias DatabaseEngine = StockroomMigrations.DatabaseEngine

/// The schema migrations of the inventory at one location, on either engine: apply them, plan
/// them, list them and verify them (`stockroom migrate`). The engine is chosen here, once,
/// from the location; a front never holds an engine's runner.
public struct StoreMigrations {
    /// Where the inventory is.
    public let location: DatabaseLocation
    /// How long to wait for another writer (SQLite's busy timeout, PostgreSQL's `lock_timeout`).
    public let busyTimeout: Duration
    /// ``busyTimeout`` in milliseconds.
    @available(*, deprecated, renamed: "busyTimeout")
    public var busyTimeoutMilliseconds: Int32 { busyTimeout.clampedMilliseconds }
    /// The migrations to apply or compare with.
    public let migrations: MigrationSet

    /// The migrations of the inventory at `location`; `migrations` nil means the ones built
    /// into the binary for the location's engine.
    public init(location: DatabaseLocation, busyTimeout: Duration, migrations: MigrationSet? = nil) {
        self.location = location
        self.busyTimeout = busyTimeout
        self.migrations = migrations ?? .embedded(location.engine)
    }

    /// The migrations of the inventory at `location`, the busy timeout in milliseconds.
    @available(*, deprecated, renamed: "init(location:busyTimeout:migrations:)")
    public init(location: DatabaseLocation, busyTimeoutMilliseconds: Int32, migrations: MigrationSet? = nil) {
        self.init(location: location, busyTimeout: .milliseconds(busyTimeoutMilliseconds), migrations: migrations)
    }

    /// Applies the pending migrations up to `target`, creating the file when it does not
    /// exist; `onApplied` is called as each one commits.
    ///
    /// - Throws: `MigrationError`, ``DatabaseFileError`` or the engine's error.
    public func migrate(upTo target: Int?, onApplied: (Migration) -> Void) throws {
        switch location {
        case .file(let path):
            _ = try DatabaseFile.openForWriting(path: path, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds,
                                               migrations: migrations, upTo: target, onApplied: onApplied)
        case .postgres(let uri):
            try serverRunner(uri).migrate(upTo: target, onApplied: onApplied)
        }
    }

    /// The migrations not yet applied, changing nothing (a missing file has every one pending).
    public func pending() throws -> [Migration] {
        try runner(accepting: [])?.pendingMigrations() ?? emptyRunner().pendingMigrations()
    }

    /// Every migration with its state, changing nothing (a missing file has every one pending).
    public func status() throws -> [MigrationStatusEntry] {
        try runner(accepting: .untrustedMigrations)?.status() ?? emptyRunner().status()
    }

    /// Checksums, versions and the live schema against the migrations, changing nothing.
    ///
    /// - Throws: ``BackupError/databaseMissing(_:)`` when there is no file (none is created).
    public func verify() throws -> MigrationVerification {
        guard let runner = try runner(accepting: .untrustedMigrations) else {
            throw BackupError.databaseMissing(location.description)
        }
        return try runner.verify()
    }

    /// The schema `migrations` produce (nil: the SQLite migrations built into the binary), as
    /// the SQL script committed in `Migrations/sqlite/schema.sql`: run in a scratch in-memory
    /// database, so no database is opened. (PostgreSQL's schema.sql is made on a throwaway
    /// server by scripts/update-schema.sh.)
    public static func schemaScript(of migrations: MigrationSet? = nil) throws -> String {
        try SchemaSnapshot.produced(by: migrations ?? .embedded(.sqlite)).script
    }

    /// The runner for the existing database, read-only; nil for a file that does not exist.
    private func runner(accepting acceptance: DatabaseFile.Acceptance) throws -> (any MigrationRunning)? {
        switch location {
        case .file(let path):
            guard let (database, _) = try DatabaseFile.openForReading(
                path: path, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds, migrations: migrations, accepting: acceptance
            ) else { return nil }
            return MigrationRunner(database: database, migrations: migrations)
        case .postgres(let uri):
            return try serverRunner(uri)
        }
    }
}
