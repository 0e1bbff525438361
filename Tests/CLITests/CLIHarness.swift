import Foundation
@testable import stockroom
import StockroomMigrations
import StockroomStore
import StockroomTestSupport
import Testing

// The CLI tests' harness, in one place: `Processes.stockroom` runs the binary (arguments,
// environment, stdin, working directory, timeout); `CLIDatabase` is a file in a fresh folder
// that it runs against; `expectFailure` is the one way to assert a refusal.

/// A database file in a fresh folder, and the binary run against it.
struct CLIDatabase {
    let directory: TemporaryDirectory
    /// The database file's path (it need not exist yet).
    let path: String

    init(fileName: String = "inventory.sqlite") {
        directory = TemporaryDirectory()
        path = directory.path(fileName)
    }

    /// Runs `stockroom ARGUMENTS` with this database as `STOCKROOM_DB`.
    @discardableResult
    func stockroom(_ arguments: String..., environment: [String: String] = [:], stdin: String? = nil) throws -> ProcessResult {
        try stockroom(arguments: arguments, environment: environment, stdin: stdin)
    }

    /// Runs `stockroom ARGUMENTS` with this database as `STOCKROOM_DB` (unless `environment`
    /// sets it).
    @discardableResult
    func stockroom(arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> ProcessResult {
        try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": path].merging(environment) { $1 }, stdin: stdin)
    }

    /// Runs a command that must be refused with `code`: checks the failure contract
    /// (``expectFailure(_:code:message:mentioning:sourceLocation:)``), that nothing was printed
    /// on stdout, and that the database file did not change.
    @discardableResult
    func expectRefusal(_ arguments: String..., code: Failure.Code, message: String? = nil, mentioning text: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let before = try DatabaseSnapshot.of(path)
        let result = try stockroom(arguments: arguments)
        expectFailure(result, code: code, message: message, mentioning: text, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(try DatabaseSnapshot.of(path) == before, "\(arguments) changed the database", sourceLocation: sourceLocation)
        return result
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

/// Expects the CLI's failure contract: exit `code`, and exactly one line on stderr, starting
/// with `error: `. `message`: the whole line after `error: `; `text`: a part of it.
func expectFailure(_ result: ProcessResult, code: Failure.Code, message: String? = nil, mentioning text: String? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == code.rawValue, "expected exit \(code.rawValue) (\(code)): \(result)", sourceLocation: sourceLocation)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[0].hasPrefix("error: ") && lines[1].isEmpty,
            "expected one `error:` line on stderr: \(result)", sourceLocation: sourceLocation)
    if let message { #expect(result.errorMessage == message, "\(result)", sourceLocation: sourceLocation) }
    if let text { #expect(result.errorMessage.contains(text), "\(result)", sourceLocation: sourceLocation) }
}

extension ProcessResult {
    /// The first stderr line without its `error: ` prefix.
    var errorMessage: String {
        String(stderr.split(separator: "\n").first?.dropFirst("error: ".count) ?? "")
    }
}

extension MigrationSet {
    /// The versions as `group_concat(version)` prints them: `1,2,3`.
    var versionList: String { migrations.map { String($0.version) }.joined(separator: ",") }
}
