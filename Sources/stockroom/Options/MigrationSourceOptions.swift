import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomStore

/// `--migrations-dir PATH` (hidden): use the `NNNN_name.sql` files of a folder instead of the
/// migrations built into the binary.
///
/// For tests, which run fixture migration sets through the real binary, and for an operator
/// rehearsing a new migration on a copy of a database before it ships. A database migrated
/// this way records those files' checksums, so ordinary commands refuse it until the same
/// files are the embedded ones.
struct MigrationSourceOptions: ParsableArguments {
    @Option(name: .long, help: .hidden, completion: .directory)
    var migrationsDir: String?

    func validate() throws {
        if let migrationsDir, migrationsDir.isEmpty { throw ValidationError("--migrations-dir must not be empty") }
    }

    /// The folder's migrations when --migrations-dir is given, else nil: the ones built into
    /// the binary for the database's engine (Migrations/sqlite/ or Migrations/postgres/).
    func migrationSet() throws -> MigrationSet? {
        guard let migrationsDir else { return nil }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: migrationsDir, isDirectory: &isDirectory), isDirectory else {
            throw Failure.Message(code: .notFound, description: "no migrations folder at \(migrationsDir)")
        }
        return try MigrationSet(directory: URL(fileURLWithPath: migrationsDir, isDirectory: true))
    }
}

extension DatabaseOptions {
    /// The migrations of the database these options name, from --migrations-dir or built in;
    /// `forWriting` makes the default location's folder exist (see ``locationForWriting()``).
    func migrations(_ source: MigrationSourceOptions, forWriting: Bool = false) throws -> StoreMigrations {
        StoreMigrations(location: forWriting ? locationForWriting() : resolvedLocation(), busyTimeout: busyTimeoutDuration,
                        migrations: try source.migrationSet())
    }
}
