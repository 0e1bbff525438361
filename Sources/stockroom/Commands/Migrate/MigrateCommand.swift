import ArgumentParser

/// `stockroom migrate …`: the schema's versions.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Inspect and apply schema migrations.",
        discussion: "Commands that write apply pending migrations on their own (commands that read never do); these show and control them.",
        subcommands: [MigrationStatus.self, MigrateUp.self, MigrateVerify.self, MigrateSchema.self]
    )
}
