import ArgumentParser
import StockroomStore

/// `stockroom migrate up`: applies pending migrations.
struct MigrateUp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Apply pending migrations in order, each in its own transaction.",
        discussion: """
            The write lock is taken before the applied list is read, and the list is read again \
            for every migration: a second `migrate up` running at the same time waits, then \
            applies only what is still pending. A failing migration is rolled back whole; the \
            ones before it, already printed as applied, stay applied.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var source: MigrationSourceOptions

    @Option(name: .customLong("to"), help: ArgumentHelp("Stop after the migration with this version.", valueName: "version"))
    var target: Int?

    @Flag(help: "Print what would be applied, and write nothing.")
    var dryRun = false

    func run() throws {
        let migrations = try database.migrations(source, forWriting: !dryRun)
        if let target, migrations.migrations.migration(version: target) == nil {
            throw Failure.Message(code: .usage, description:
                "--to \(target): no migration has that version (known: \(migrations.migrations.migrations.map { String($0.version) }.joined(separator: ", ")))")
        }
        if dryRun { return try printPlan(migrations) }

        // Printed as each one commits, so a failure later in the run still shows what was applied.
        var appliedCount = 0
        try migrations.migrate(upTo: target) { migration in
            appliedCount += 1
            Output.line("Applied \(migration.fileName)")
        }
        if appliedCount == 0 {
            Output.line(target.map { "Nothing to apply up to version \($0)." } ?? "The database is up to date.")
        }
    }

    private func printPlan(_ migrations: StoreMigrations) throws {
        let plan = try migrations.pending()
            .filter { $0.version <= target ?? Int.max }
        for migration in plan {
            Output.line("Would apply \(migration.fileName)\(migration.runsInTransaction ? "" : " (outside a transaction)")")
        }
        Output.line(plan.isEmpty ? "Nothing to apply." : "Dry run: nothing was written.")
    }
}
