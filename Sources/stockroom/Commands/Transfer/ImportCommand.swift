import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomStore
import TextFormats

/// `stockroom import FILE`: many items in one all-or-nothing transaction.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the items of a CSV or JSON Lines file, all or none.",
        discussion: """
            FILE is read as CSV when its name ends in .csv, as JSON Lines when it ends in .jsonl \
            or .ndjson, else as --format says (default jsonl); '-' reads standard input. Both are \
            the formats `stockroom export` writes: a row with an id keeps it, a row without one \
            gets a new id; times left out are the time of the import. CSV needs a header row \
            naming its columns (name and status at least).

            The import is one transaction: if any row is bad (a missing name, an unknown colour, \
            an in-stock quantity below 1, a back-order flag on an in-stock row, a malformed or \
            repeated id, broken quoting, invalid UTF-8) nothing is imported, and stderr lists the \
            first 20 bad rows as `LINE: reason` after the `error:` line, then how many more. An id \
            already in the database fails the import too unless --on-conflict says to skip the \
            row or replace the stored item. A killed import leaves the database as it was.

            --dry-run checks everything, conflicts included, and writes nothing (it does not \
            create the database either). On a terminal, progress goes to stderr. The summary \
            goes to stdout. Exit codes: \(Failure.Code.dataError.rawValue) bad rows or conflicting ids (nothing imported); \
            \(Failure.Code.notFound.rawValue) FILE not found; \(Failure.Code.ioError.rawValue) FILE cannot be read; \(Failure.Code.busy.rawValue) busy.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The file to read, or '-' for standard input.", valueName: "file"), completion: .file())
    var file: String

    @Option(help: "The input format when FILE's extension does not say: jsonl or csv.")
    var format: TransferFormat?

    @Flag(help: "Check the file and report what would be imported, without writing anything.")
    var dryRun = false

    @Option(help: "What to do with an id that already exists: fail (nothing is imported), skip the row, or replace the stored item.")
    var onConflict: ItemImport.ConflictPolicy = .fail

    @Option(help: "How to print the summary: text or json.")
    var formatSummary: ReportFormat = .text

    func validate() throws {
        if format == .json { throw ValidationError("import reads jsonl or csv; write JSON Lines with `stockroom export --format jsonl`") }
        if let format, let named = TransferFormat.fromExtension(of: file), named != format {
            throw ValidationError("--format \(format.rawValue) contradicts the file name \(file)")
        }
        if TransferFormat.fromExtension(of: file) == .json {
            throw ValidationError("import reads jsonl or csv, not a .json file; write JSON Lines with `stockroom export --format jsonl`")
        }
    }

    var resolvedFormat: TransferFormat { TransferFormat.fromExtension(of: file) ?? format ?? .jsonl }

    func run() throws {
        let input = try openInput()
        defer { if input.descriptor != STDIN_FILENO { close(input.descriptor) } }
        let outcome = Result { try load(from: input) }
        switch outcome {
        case .success(let (summary, seconds)):
            printSummary(summary, seconds: seconds)
        case .failure(let rejection as ImportRejection):
            // The one multi-line error: the `error:` line, then one line per bad row.
            let lines = rejection.reportLines
            let text = "error: " + lines[0] + "\n" + lines.dropFirst().map { $0 + "\n" }.joined()
            StandardError.write(text)
            Glibc.exit(Failure.Code.dataError.rawValue)
        case .failure(let error):
            throw error
        }
    }

    private func load(from input: (descriptor: Int32, size: Int?)) throws -> (ItemImport.Summary, Double) {
        let progress = TerminalProgress(label: "import")
        defer { progress.end() }
        let started = ContinuousClock.now
        func elapsed() -> Double { Output.seconds(started.duration(to: .now)) }
        var lastShown = -1.0 // the first report always shows
        let report = { (step: ItemImport.Progress) in
            guard progress.isShown else { return }
            let seconds = elapsed()
            guard seconds - lastShown >= 0.1 else { return }
            lastShown = seconds
            progress.show(text: ImportCommand.progressText(step, seconds: seconds, totalBytes: input.size))
        }
        let importer = ItemImport(format: resolvedFormat, onConflict: onConflict, dryRun: dryRun)
        // A dry run only reads (a missing file reads as an empty inventory, and is not created).
        let store = dryRun ? try database.openStoreForReading(.items) : try database.openStore()
        let summary = try importer.run(reading: input.descriptor, into: store, progress: report)
        return (summary, elapsed())
    }

    /// "rows, rate, elapsed, estimate" for the progress line.
    static func progressText(_ step: ItemImport.Progress, seconds: Double, totalBytes: Int?) -> String {
        let rate = seconds > 0 ? Int(Double(step.rows) / seconds) : 0
        var text = "\(step.rows) rows, \(rate) rows/s, \(fixedPointText(seconds, decimals: 1)) s"
        if let totalBytes, totalBytes > 0, step.bytesRead > 0 {
            let fraction = min(1, Double(step.bytesRead) / Double(totalBytes))
            let remaining = seconds / fraction - seconds
            text += ", \(fixedPointText(fraction * 100, decimals: 0))%, about \(fixedPointText(remaining, decimals: 0)) s left"
        }
        return text
    }

    private func openInput() throws -> (descriptor: Int32, size: Int?) {
        if file == "-" { return (STDIN_FILENO, nil) }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == ENOENT { throw Failure.Message(code: .notFound, description: "no file at \(file)") }
            throw Failure.Message(code: .ioError, description: "cannot read \(file): \(reason)")
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw Failure.Message(code: .ioError, description: "cannot read \(file): it is a folder")
        }
        let isRegular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        return (descriptor, isRegular ? Int(info.st_size) : nil)
    }

    private func printSummary(_ summary: ItemImport.Summary, seconds: Double) {
        switch formatSummary {
        case .text:
            let time = fixedPointText(seconds, decimals: 1)
            var text = summary.dryRun ? "dry run: \(summary.rows) rows are valid; would import \(summary.imported) items" : "imported \(summary.imported) items"
            if summary.skipped > 0 {
                // Under replace, a row is skipped only when its stored item already holds it.
                text += onConflict == .replace ? " (\(summary.skipped) skipped: unchanged)" : " (\(summary.skipped) skipped: their ids exist)"
            }
            if summary.replaced > 0 { text += " (\(summary.replaced) replaced)" }
            Output.line(text + (summary.dryRun ? "; nothing was written" : " in \(time) s"))
        case .json:
            Output.line(JSONText.object([
                "rows": String(summary.rows), "imported": String(summary.imported), "skipped": String(summary.skipped),
                "replaced": String(summary.replaced), "dryRun": String(summary.dryRun), "seconds": fixedPointText(seconds, decimals: 3),
            ]))
        }
    }
}
