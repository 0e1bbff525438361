import ArgumentParser
import Inventory
import StockroomStore
import TextFormats

/// `stockroom check`: is this database (or backup) sound and fully readable?
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a database or backup without changing it.",
        discussion: """
            Runs integrity_check and foreign_key_check, compares the applied migrations with the \
            ones this stockroom knows (versions and checksums), decodes every row of items, \
            drafts and item_events, and replays each item's history against its row (no gaps in \
            versions, each event following from the one before, the latest matching the item). \
            Prints one line per problem on stdout. Exit codes: \(Failure.Code.success.rawValue) all is well; \(Failure.Code.dataError.rawValue) \
            problems with the content (rows, migrations, foreign keys); \(Failure.Code.ioError.rawValue) the file is damaged \
            or not a database; \(Failure.Code.notFound.rawValue) no such file; \(Failure.Code.busy.rawValue) busy.

            On PostgreSQL the same checks run in one read-only snapshot, except \
            integrity_check and foreign_key_check, which the server has no counterpart of (it \
            checks pages as it reads them and foreign keys on every write); instead constraints \
            added NOT VALID and disabled triggers on Stockroom's tables are reported. \(Failure.Code.busy.rawValue): the \
            server could not be reached.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Output format.")
    var format: ReportFormat = .text

    func run() throws {
        let location = database.resolvedLocation()
        let path = location.description
        let report = try DatabaseCheck.run(at: location, busyTimeout: database.busyTimeoutDuration)
        switch format {
        case .text: printText(report, path: path)
        case .json: Output.line(json(report, path: path))
        }
        guard report.isHealthy else {
            let count = report.problems.count
            throw Failure.Message(code: report.isCorrupt ? .ioError : .dataError,
                                  description: "\(path) failed its check: \(count) problem\(count == 1 ? "" : "s")")
        }
    }

    private func printText(_ report: DatabaseCheck.Report, path: String) {
        for problem in report.problems { Output.line(problem.description) }
        guard report.isHealthy, let summary = report.summary else { return }
        let behind = summary.schemaVersion < report.latestKnownVersion
            ? " of \(report.latestKnownVersion) (commands that write migrate it, or run `stockroom migrate up`)" : ""
        Output.line("ok: \(path): schema version \(summary.schemaVersion)\(behind), \(summary.itemsAndDrafts)")
    }

    private func json(_ report: DatabaseCheck.Report, path: String) -> String {
        let problems = report.problems.map { problem in
            JSONText.object(["kind": JSONText.string(problem.kind.rawValue), "message": JSONText.string(problem.message)])
        }
        let summary = report.summary
        return JSONText.object([
            "path": JSONText.string(path),
            "ok": String(report.isHealthy),
            "schemaVersion": summary.map { String($0.schemaVersion) } ?? "null",
            "latestKnownSchemaVersion": String(report.latestKnownVersion),
            "items": summary.map { String($0.itemCount) } ?? "null",
            "drafts": summary.map { String($0.draftCount) } ?? "null",
            "problems": JSONText.array(problems),
        ])
    }
}
