import ArgumentParser
import FoundationEssentials
import Glibc
import Inventory
import StockroomStore
import TextFormats

/// `stockroom backup DEST`: an online, checked copy of the database.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database to DEST while other processes keep using it.",
        discussion: """
            The copy is one consistent snapshot (SQLite's backup API), written beside DEST under a \
            temporary name, checked (integrity_check, schema version and counts), synced, and \
            only then renamed to DEST, readable by its owner only. A backup killed outright \
            leaves its temporary file; the next backup to the same DEST removes it. The database is read, never \
            migrated, so any schema version can be backed up. On a terminal, progress goes to \
            stderr. Exit codes: \(Failure.Code.notFound.rawValue) no database; \(Failure.Code.dataError.rawValue) not a Stockroom database; \(Failure.Code.cannotCreate.rawValue) DEST exists \
            (without --force) or cannot be created; \(Failure.Code.ioError.rawValue) the copy failed its check or could not be \
            written, or DEST is written but the folder could not be synced; \(Failure.Code.busy.rawValue) busy; \(Failure.Code.usage.rawValue) the \
            database is PostgreSQL (use pg_dump or pg_basebackup: docs/postgresql.md, "Backups on PostgreSQL").
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The backup file to write.", valueName: "dest"), completion: .file())
    var destination: String

    @Flag(help: "Replace DEST when it already exists.")
    var force = false

    @Option(help: "Output format.")
    var format: ReportFormat = .text

    func run() throws {
        let progress = TerminalProgress(label: "backup")
        defer { progress.end() }
        let result = try DatabaseBackup.run(
            from: database.resolvedLocation(), to: destination, replacing: force,
            busyTimeout: database.busyTimeoutDuration,
            pagesPerStep: progress.isShown ? 256 : -1, progress: progress.show)
        progress.end()
        let summary = result.summary
        let seconds = fixedPointText(result.seconds, decimals: 3)
        switch format {
        case .text:
            Output.line("Backed up \(summary.itemsAndDrafts) (schema version \(summary.schemaVersion)) to \(result.path): \(result.pages) pages, \(result.bytes) bytes, \(seconds) s")
        case .json:
            Output.line(JSONText.object([
                "path": JSONText.string(result.path), "bytes": String(result.bytes), "pages": String(result.pages),
                "seconds": seconds, "schemaVersion": String(summary.schemaVersion),
                "items": String(summary.itemCount), "drafts": String(summary.draftCount),
            ]))
        }
    }
}
