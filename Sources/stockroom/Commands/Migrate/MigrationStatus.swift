import ArgumentParser
import StockroomStore
import TextFormats

/// `stockroom migrate status`: which migrations are applied, pending, skipped or unknown.
struct MigrationStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List every migration with its state, without changing the database.",
        discussion: """
            STATE is applied, pending, skipped (not applied although a later one is) or unknown \
            (recorded by a newer stockroom). CHECKSUM is "ok", or "MODIFIED" when the file \
            changed after it was applied. A database file that does not exist is not created: \
            every migration reads as pending.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var source: MigrationSourceOptions

    @Option(help: "Output format.")
    var format: OutputFormat = .table

    @Flag(help: "Exit with status \(Failure.Code.pending.rawValue) when any migration is pending or skipped, for deploy scripts and CI.")
    var exitCode = false

    func run() throws {
        let entries = try database.migrations(source).status()
        switch format {
        case .table:
            Output.lines(TextTable.lines(
                header: ["VERSION", "NAME", "STATE", "APPLIED AT", "CHECKSUM"],
                rows: entries.map { entry in
                    let checksum = entry.checksumMatches.map { $0 ? "ok" : "MODIFIED" } ?? ""
                    return [String(entry.version), entry.name, stateText(entry.state), entry.appliedAt ?? "", checksum]
                }))
        case .json:
            Output.line(JSONText.array(entries.map(jsonObject)))
        case .csv:
            Output.write(CSVText.record(["version", "name", "file", "state", "applied_at", "checksum_matches"]))
            for entry in entries {
                Output.write(CSVText.record([
                    String(entry.version), entry.name, entry.fileName ?? "", entry.state.rawValue,
                    entry.appliedAt ?? "", entry.checksumMatches.map { String($0) } ?? "",
                ]))
            }
        }
        let waiting = entries.filter { $0.state == .pending || $0.state == .skipped }
        if exitCode, !waiting.isEmpty {
            throw Failure.Message(code: .pending, description:
                "\(waiting.count) migration\(waiting.count == 1 ? " is" : "s are") not applied: \(waiting.map { $0.fileName ?? String($0.version) }.joined(separator: ", "))")
        }
    }

    private func stateText(_ state: MigrationStatusEntry.State) -> String {
        state == .unknown ? "unknown (newer than this stockroom)" : state.rawValue
    }

    /// `{"version":1,"name":"create_items","file":"0001_create_items.sql","state":"applied",
    /// "appliedAt":"…","checksumMatches":true}`, with null where a field does not apply.
    private func jsonObject(_ entry: MigrationStatusEntry) -> String {
        JSONText.object([
            "version": String(entry.version),
            "name": JSONText.string(entry.name),
            "file": JSONText.string(entry.fileName),
            "state": JSONText.string(entry.state.rawValue),
            "appliedAt": JSONText.string(entry.appliedAt),
            "checksumMatches": entry.checksumMatches.map { String($0) } ?? "null",
        ])
    }
}
