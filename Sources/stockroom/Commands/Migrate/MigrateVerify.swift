import ArgumentParser
import StockroomStore

/// `stockroom migrate verify`: proves the database is what its migrations say it is.
struct MigrateVerify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check checksums, versions and the live schema against the migrations; exit \(Failure.Code.dataError.rawValue) when anything is off.",
        discussion: """
            Reports an applied file that was edited, a version this stockroom does not know, a \
            skipped version, and any difference between the live schema and the schema the \
            applied migrations produce in a scratch in-memory database (an index dropped or a \
            trigger added by hand in the sqlite3 shell, a column changed). Findings are printed \
            one per line on stdout; the database is opened read-only.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var source: MigrationSourceOptions

    func run() throws {
        let report = try database.migrations(source).verify()
        let findings = report.findings
        Output.lines(findings)
        if report.schemaComparisonSkipped {
            Output.line("The schema was not compared: the database records migrations this stockroom does not know.")
        }
        if let first = findings.first {
            let more = findings.count > 1 ? " (and \(findings.count - 1) more, listed on stdout)" : ""
            throw Failure.Message(code: .dataError, description: "the database does not match its migrations: \(first)\(more)")
        }
        let pending = report.pendingCount > 0 ? "; \(report.pendingCount) pending" : ""
        Output.line("OK: \(report.appliedCount) migrations applied, checksums match, schema matches\(pending).")
    }
}
