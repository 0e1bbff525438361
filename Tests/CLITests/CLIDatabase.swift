import Foundation
import StockroomMigrations
import StockroomTestSupport
import Testing

/// A database file in a fresh folder, and the binary run against it.
struct CLIDatabase {
    let directory = TemporaryDirectory()
    var path: String { directory.path("stockroom.sqlite") }

    /// Runs `stockroom ARGUMENTS` with this database as `STOCKROOM_DB`.
    @discardableResult
    func stockroom(_ arguments: String...) throws -> ProcessResult {
        try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": path])
    }

    /// Runs `stockroom ARGUMENTS` with this database as `STOCKROOM_DB`.
    @discardableResult
    func stockroom(arguments: [String]) throws -> ProcessResult {
        try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": path])
    }

    /// The file's bytes, to prove a command left it exactly as it was.
    func contents() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Runs SQL in the sqlite3 shell and returns its output.
    func sqlite3(_ sql: String) throws -> String {
        let result = try Processes.sqlite3(path, sql)
        #expect(result.status == 0, "\(result)")
        return result.output
    }
}

extension ProcessResult {
    /// True when the process failed with `code` and said why in exactly one `error:` line.
    func failed(with code: Int32) -> Bool {
        let errorLines = stderr.split(separator: "\n")
        return status == code && errorLines.count == 1 && errorLines[0].hasPrefix("error: ")
    }

    /// The single error line without its `error: ` prefix.
    var errorMessage: String {
        String(stderr.split(separator: "\n").first?.dropFirst("error: ".count) ?? "")
    }
}

extension MigrationSet {
    /// The versions as `group_concat(version)` prints them: `1,2,3`.
    var versionList: String { migrations.map { String($0.version) }.joined(separator: ",") }
}
