import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomStore
import TextFormats

/// `stockroom copy --from SRC --to DEST`: a whole inventory from one database to another.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a whole inventory (items, their history, drafts) to another database.",
        discussion: """
            SRC and DEST are each a SQLite file or a PostgreSQL URI (postgresql://...), in any \
            combination: this is how an inventory moves from a file to a server and back. \
            DEST's schema is created or brought up to date first; then every row is written in \
            one transaction on DEST (COPY into PostgreSQL), read back and compared with SRC \
            (row counts and a checksum per table) before it commits. Any failure leaves DEST as \
            it was. SRC is only read, in one snapshot: a file stays byte-identical.

            DEST must hold no items, history or drafts; --force replaces what it holds, history \
            included (the one time Stockroom deletes history). A row in SRC that does not decode \
            stops the copy. On a terminal, progress goes to stderr. Exit codes: \
            \(Failure.Code.notFound.rawValue) no file at SRC; \(Failure.Code.dataError.rawValue) a row in SRC does not decode, or \
            SRC is not a Stockroom database; \(Failure.Code.cannotCreate.rawValue) DEST holds an inventory (without \
            --force); \(Failure.Code.ioError.rawValue) the copy did not match SRC when read back; \(Failure.Code.busy.rawValue) busy or \
            a server could not be reached.
            """
    )

    @Option(help: ArgumentHelp("The database to copy from: a file or a PostgreSQL URI.", valueName: "src"), completion: .file())
    var from: String

    @Option(help: ArgumentHelp("The database to copy into: a file or a PostgreSQL URI.", valueName: "dest"), completion: .file())
    var to: String

    @Flag(help: "Replace the inventory DEST already holds.")
    var force = false

    @Option(help: ArgumentHelp(
        "Seconds to wait while another process holds a lock before giving up with exit code 75.",
        valueName: "seconds"))
    var busyTimeout: Double = 5

    @Option(help: "Output format.")
    var format: ReportFormat = .text

    func validate() throws {
        if from.isEmpty || to.isEmpty { throw ValidationError("--from and --to must not be empty") }
        guard busyTimeout >= 0, busyTimeout <= 3600 else {
            throw ValidationError("--busy-timeout must be between 0 and 3600 seconds")
        }
    }

    func run() throws {
        Failure.startWaiting()
        let source = DatabaseLocation(from), destination = DatabaseLocation(to)
        let progress = TerminalProgress(label: "copy")
        defer { progress.end() }
        let started = ContinuousClock.now
        func elapsed() -> Double { Output.seconds(started.duration(to: .now)) }
        var lastShown = -1.0
        let summary = try InventoryCopy.run(
            from: source, to: destination, replacing: force,
            busyTimeout: .milliseconds(Int64((busyTimeout * 1000).rounded()))
        ) { step in
            guard progress.isShown else { return }
            let seconds = elapsed()
            if case .copying(_, let rows, let total) = step, rows > 0, rows < total, seconds - lastShown < 0.1 { return }
            if case .verifying(_, let rows, let total) = step, rows > 0, rows < total, seconds - lastShown < 0.1 { return }
            lastShown = seconds
            progress.show(text: CopyCommand.progressText(step, seconds: seconds))
        }
        progress.end()
        let seconds = elapsed()
        let items = summary.rows[.items] ?? 0, events = summary.rows[.itemEvents] ?? 0, drafts = summary.rows[.drafts] ?? 0
        switch format {
        case .text:
            Output.line("copied \(items) items, \(events) history events and \(drafts) drafts from \(source) to \(destination)"
                + (summary.replaced ? " (replacing what it held)" : "")
                + " in \(fixedPointText(seconds, decimals: 1)) s; checksum \(summary.checksum)")
        case .json:
            Output.line(JSONText.object([
                "from": JSONText.string(source.description), "to": JSONText.string(destination.description),
                "items": String(items), "itemEvents": String(events), "drafts": String(drafts),
                "replaced": String(summary.replaced), "checksum": JSONText.string(summary.checksum),
                "seconds": fixedPointText(seconds, decimals: 3),
            ]))
        }
    }

    /// The progress line: the phase, rows of total, and time so far.
    static func progressText(_ step: InventoryCopy.Progress, seconds: Double) -> String {
        let time = fixedPointText(seconds, decimals: 1) + " s"
        switch step {
        case .copying(let table, let rows, let total): return "copying \(table.rawValue): \(rows) of \(total) rows, \(time)"
        case .indexing: return "building indexes, \(time)"
        case .verifying(let table, let rows, let total): return "verifying \(table.rawValue): \(rows) of \(total) rows, \(time)"
        }
    }
}
