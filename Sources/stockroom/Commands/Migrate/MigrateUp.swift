import ArgumentParser
import SQLiteCore
import StockroomMigrations

/// `stockroom migrate up`: applies pending migrations.
struct MigrateUp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Apply pending migrations in order, each in its own transaction."
    )

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let connection = try Database(path: database.resolvedPath(),
                                      configuration: .init(busyTimeoutMilliseconds: database.busyTimeoutMilliseconds))
        let applied = try MigrationRunner(database: connection).migrate()
        if applied.isEmpty {
            Output.line("The database is up to date.")
        }
        for migration in applied {
            Output.line("Applied \(migration.fileName)")
        }
    }
}
