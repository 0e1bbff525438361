import ArgumentParser
import StockroomStore

/// `stockroom migrate schema`: the schema the migrations produce, as committed in
/// `Migrations/schema.sql` (scripts/update-schema.sh writes it with this command).
struct MigrateSchema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the full schema after every migration, read back from SQLite's sqlite_schema.",
        discussion: "The migrations run in a scratch in-memory database; no database file is opened."
    )

    @OptionGroup var source: MigrationSourceOptions

    func run() throws {
        Output.write(try StoreMigrations.schemaScript(of: try source.migrationSet()))
    }
}
