import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomStore

/// `stockroom export`: every item, as one consistent snapshot, in a file format other tools read.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every item, ordered by id, as JSON Lines, CSV or JSON.",
        discussion: """
            The items are read in one read transaction (REPEATABLE READ READ ONLY on PostgreSQL): one consistent snapshot while other \
            processes keep writing. They stream as they are read, so memory stays flat at any \
            size. Each item carries its created and updated times. JSON objects are those of \
            `items show --format json` plus "createdAt" and "updatedAt"; CSV has the columns of \
            `items list --format csv` plus created_at and updated_at, CRLF line ends, and a name \
            that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage \
            return, or with ') written with a leading ' that `stockroom import` removes again. \
            With --output FILE the export is written beside FILE under a temporary name, synced \
            and renamed into place when complete, so FILE is never partial; an existing FILE is \
            replaced. `stockroom import` reads back what export wrote. Exit codes: \(Failure.Code.cannotCreate.rawValue) the output \
            cannot be created; \(Failure.Code.ioError.rawValue) it cannot be written; \(Failure.Code.busy.rawValue) busy.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Output format: jsonl (one object per line), csv, or json (one array).")
    var format: TransferFormat = .jsonl

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output ('-' is standard output).", valueName: "file"), completion: .file())
    var output: String?

    func validate() throws {
        if output?.isEmpty == true { throw ValidationError("--output must not be empty") }
    }

    func run() throws {
        // A read-only command: it never creates, converts or migrates the file.
        let store = try database.openStoreForReading(.items)
        if let output, output != "-" {
            _ = try ItemExport.write(format, from: store, toFile: output)
        } else {
            _ = try ItemExport.write(format, from: store, to: STDOUT_FILENO)
        }
    }
}
