import FoundationEssentials
import Glibc

/// An ordered set of migrations with unique versions.
public struct MigrationSet: Sendable {
    /// The migrations in ascending version order.
    public let migrations: [Migration]

    /// Builds a set, sorting by version.
    ///
    /// - Throws: ``MigrationError/duplicateVersion(_:_:_:)`` when two files share a version.
    public init(_ migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.version == next.version {
            throw MigrationError.duplicateVersion(previous.version, previous.fileName, next.fileName)
        }
        self.migrations = sorted
    }

    /// Reads every `*.sql` file of a folder (used by tests and tools; the product uses ``embedded(_:)``).
    public init(directory: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") && $0 != ".sql" && $0 != "schema.sql" }
        try self.init(names.map { name in
            let data = try Data(contentsOf: directory.appending(path: name))
            return try Migration(fileName: name, sql: String(decoding: data, as: UTF8.self))
        })
    }

    /// The migrations compiled into this binary for `engine`, from the package's
    /// `Migrations/sqlite/` or `Migrations/postgres/`: the same versions and names on both
    /// engines, each in its engine's dialect.
    public static func embedded(_ engine: DatabaseEngine) -> MigrationSet {
        switch engine {
        case .sqlite: embeddedSQLite
        case .postgres: embeddedPostgres
        }
    }

    private static let embeddedSQLite: MigrationSet = embedding(EmbeddedMigrations.sqlite)
    private static let embeddedPostgres: MigrationSet = embedding(EmbeddedMigrations.postgres)

    private static func embedding(_ files: [EmbeddedMigrationFile]) -> MigrationSet {
        do {
            // Checksums and transaction flags were computed at build time (a test compares them
            // with the ones computed from Migrations/ at run time): start-up hashes nothing.
            return try MigrationSet(files.map {
                try Migration(fileName: $0.fileName, sql: $0.sql, checksum: $0.checksum, runsInTransaction: $0.runsInTransaction)
            })
        } catch {
            // The build embeds Migrations/ verbatim and a test loads it, so a bad file name
            // cannot reach a shipped binary.
            fatalError("Embedded migrations are invalid: \(error)")
        }
    }

    /// The highest version, or 0 for an empty set.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The migration with `version`, if known.
    public func migration(version: Int) -> Migration? {
        migrations.first { $0.version == version }
    }
}

/// A migration file as embedded at build time, with what the build tool derived from its text
/// through ``MigrationScript``.
struct EmbeddedMigrationFile: Sendable {
    let fileName: String
    let sql: String
    let checksum: String
    let runsInTransaction: Bool
}

/// Namespace for the files generated from `Migrations/<engine>/` by the EmbedMigrations build
/// plugin: `sqlite` and `postgres`, one list per folder.
enum EmbeddedMigrations {}
