import ArgumentParser
import Foundation
import Inventory
import StockroomStore

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
            stderr. Exit codes: 66 no database; 65 not a Stockroom database; 73 DEST exists \
            (without --force) or cannot be created; 74 the copy failed its check or could not be \
            written, or DEST is written but the folder could not be synced; 75 busy.
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
        try database.refuseServerBackups("backup")
        let progress = TerminalProgress(label: "backup")
        defer { progress.end() }
        let result = try DatabaseBackup.run(
            from: try database.resolvedPath(), to: destination, replacing: force,
            busyTimeoutMilliseconds: database.busyTimeoutMilliseconds,
            pagesPerStep: progress.isShown ? 256 : -1, progress: progress.show)
        progress.end()
        let summary = result.summary
        let seconds = String(format: "%.3f", result.seconds)
        switch format {
        case .text:
            Output.line("Backed up \(summary.itemsAndDrafts) (schema version \(summary.schemaVersion)) to \(result.path): \(result.pages) pages, \(result.bytes) bytes, \(seconds) s")
        case .json:
            Output.line("{\"path\":\(JSONPresentation.string(result.path)),\"bytes\":\(result.bytes),\"pages\":\(result.pages),\"seconds\":\(seconds),\"schemaVersion\":\(summary.schemaVersion),\"items\":\(summary.itemCount),\"drafts\":\(summary.draftCount)}")
        }
    }
}
