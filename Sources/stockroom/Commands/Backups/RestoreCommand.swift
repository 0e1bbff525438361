import ArgumentParser
import StockroomStore

/// `stockroom restore SRC`: replaces the live database's content with a checked backup.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database's content with the backup SRC.",
        discussion: """
            SRC is checked first, as `stockroom check` does; then, under the database's write \
            lock, the current content is kept as a dated safety copy beside the database \
            (NAME.before-restore-YYYYmmddTHHMMSSZ.EXT) and SRC is copied into the live file \
            through SQLite, so processes that have it open see the old content or the new, never \
            a mix. Exit codes: \(Failure.Code.notFound.rawValue) SRC missing; \(Failure.Code.usage.rawValue) SRC is the database itself; \(Failure.Code.dataError.rawValue) SRC breaks a \
            rule (unknown migrations, undecodable rows, not a Stockroom database); \(Failure.Code.ioError.rawValue) SRC is not \
            a database or is damaged; \(Failure.Code.cannotCreate.rawValue) the database holds data (without --force); \(Failure.Code.busy.rawValue) busy; \(Failure.Code.usage.rawValue) the \
            database is PostgreSQL (use pg_restore: docs/postgresql.md, "Backups on PostgreSQL").
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The backup file to restore.", valueName: "src"), completion: .file())
    var source: String

    @Flag(help: "Restore even when the database holds items or drafts (they are kept in the safety copy).")
    var force = false

    func run() throws {
        let result = try DatabaseRestore.run(
            from: source, into: database.resolvedLocation(), replacingContent: force,
            busyTimeout: database.busyTimeoutDuration)
        let summary = result.summary
        let kept = result.safetyCopyPath.map { "; the replaced content is kept in \($0)" } ?? " (it had no tables, so no safety copy was needed)"
        Output.line("Restored \(summary.itemsAndDrafts) (schema version \(summary.schemaVersion)) from \(source) into \(result.livePath)\(kept)")
    }
}
