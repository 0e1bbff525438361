import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// The exit codes exist once, in ``Failure/Code``: the README's table and `stockroom --help`
/// say the same.
@Suite struct ExitCodeDocumentationTests {
    /// The README's "Exit codes" table: code -> meaning, as written.
    func readmeTable() throws -> [Int32: String] {
        let readme = try String(contentsOf: Processes.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "## Exit codes"), "README.md has no \"## Exit codes\" section")
        var table: [Int32: String] = [:]
        for line in lines[(heading + 1)...].drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, let code = Int32(cells[0]) else { continue } // header and rule rows
            #expect(table[code] == nil, "README's exit-code table lists \(code) twice")
            table[code] = cells[1]
        }
        return table
    }

    @Test func theReadmeTableListsEveryCodeWithTheMeaningInTheCode() throws {
        let readme = try readmeTable()
        let code = Dictionary(uniqueKeysWithValues: Failure.Code.allCases.map { ($0.rawValue, $0.meaning) })
        #expect(Set(readme.keys) == Set(code.keys),
                "README lists \(readme.keys.sorted()), Failure.Code has \(code.keys.sorted())")
        for (number, meaning) in code.sorted(by: { $0.key < $1.key }) {
            #expect(readme[number] == meaning, "exit code \(number): README says \(readme[number] ?? "nothing"), the code says \(meaning)")
        }
    }

    @Test func helpListsEveryCodeWithItsMeaning() throws {
        let help = try Processes.stockroom(["--help"])
        #expect(help.status == 0, "\(help)")
        // The help wraps the meanings; compare word by word.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for code in Failure.Code.allCases {
            let entry = "\(code.rawValue) " + code.meaning.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(entry), "--help does not list \(code.rawValue): \(code.meaning)")
        }
        let listed = help.stdout.split(separator: "\n").compactMap { line -> Int32? in
            guard line.hasPrefix("  "), let number = line.split(separator: " ").first else { return nil }
            return Int32(number)
        }
        #expect(listed == Failure.Code.allCases.map(\.rawValue), "\(help.stdout)")
    }

    @Test func noLineOfTheExitCodeListIsWiderThanATerminal() {
        let lines = Failure.Code.helpSection(wrapped: true).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 79 }, "\(lines.filter { $0.count > 79 })")
        #expect(lines.count > Failure.Code.allCases.count)
    }
}
