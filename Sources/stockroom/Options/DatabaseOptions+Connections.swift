import FoundationEssentials
import Glibc
import PostgresCore
import SQLiteCore
import StockroomMigrations
import StockroomStore

extension DatabaseOptions {
    /// Opens the database to migrate it, creating the file when it does not exist, and applies
    /// the pending migrations up to `target`; see ``DatabaseFile/openForWriting(path:busyTimeoutMilliseconds:migrations:upTo:onApplied:)``.
    func migrate(_ migrations: MigrationSet, upTo target: Int?, onApplied: (Migration) -> Void) throws {
        Failure.startWaiting()
        if let server = try postgresMigrationRunner(migrations) {
            try server.migrate(upTo: target, onApplied: onApplied)
            return
        }
        _ = try DatabaseFile.openForWriting(path: pathForWriting(), busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                           migrations: migrations, upTo: target, onApplied: onApplied)
    }

    /// The PostgreSQL runner for `migrations` when the location is a server, else nil.
    func postgresMigrationRunner(_ migrations: MigrationSet) throws -> PostgresMigrationRunner? {
        guard case .postgres(let uri) = resolvedLocation() else { return nil }
        let connection = try Connection(uri)
        try connection.waitForLocks(milliseconds: busyTimeoutMilliseconds)
        return PostgresMigrationRunner(connection: connection, migrations: migrations)
    }

    /// Opens the database to read it without changing it, or returns nil when the file does
    /// not exist: commands that only look never create a file. A foreign file is refused
    /// unless `acceptance` says otherwise.
    func openExistingForReading(_ migrations: MigrationSet = .embedded,
                                accepting acceptance: DatabaseFile.Acceptance = []) throws -> Database? {
        Failure.startWaiting()
        return try DatabaseFile.openForReading(path: try resolvedPath(), busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                               migrations: migrations, accepting: acceptance)?.database
    }

    /// Opens the database for `query`: query-only (no file is created, none is left behind,
    /// nothing is written), foreign files accepted.
    ///
    /// - Throws: a not-found failure (exit 66) when the file does not exist.
    func requireExistingForQuery() throws -> Database {
        guard let database = try openExistingForReading(accepting: [.foreign, .untrustedMigrations]) else {
            throw missing(try resolvedPath())
        }
        return database
    }

    /// The refusal of a command that needs an existing file.
    func missing(_ path: String) -> Failure.Message {
        Failure.Message(code: .notFound, description: "no database at \(path)")
    }
}
