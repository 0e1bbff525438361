import ArgumentParser
import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// The exit codes exist once, in ``Failure/Code``: the table of docs/exit-codes.md and
/// `stockroom --help` say the same.
@Suite struct ExitCodeDocumentationTests {
    /// The table of docs/exit-codes.md: code -> meaning, as written.
    func documentedTable() throws -> [Int32: String] {
        let page = try String(contentsOf: Processes.packageRoot.appending(path: "docs/exit-codes.md"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "# Exit codes"), "docs/exit-codes.md has no \"# Exit codes\" heading")
        var table: [Int32: String] = [:]
        for line in lines[(heading + 1)...].drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, let code = Int32(cells[0]) else { continue } // header and rule rows
            #expect(table[code] == nil, "docs/exit-codes.md lists \(code) twice")
            table[code] = cells[1]
        }
        return table
    }

    @Test func theDocumentedTableListsEveryCodeWithTheMeaningInTheCode() throws {
        let documented = try documentedTable()
        let code = Dictionary(uniqueKeysWithValues: Failure.Code.allCases.map { ($0.rawValue, $0.meaning) })
        #expect(Set(documented.keys) == Set(code.keys),
                "docs/exit-codes.md lists \(documented.keys.sorted()), Failure.Code has \(code.keys.sorted())")
        for (number, meaning) in code.sorted(by: { $0.key < $1.key }) {
            #expect(documented[number] == meaning, "exit code \(number): docs/exit-codes.md says \(documented[number] ?? "nothing"), the code says \(meaning)")
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

    /// Every command below `command`, itself included.
    func commands(under command: any ParsableCommand.Type = Stockroom.self) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { commands(under: $0) }
    }

    /// Each command's help (abstract, discussion, option help) names exit codes by number, and
    /// every number it names is one of ``Failure/Code``: the texts interpolate the codes, and a
    /// number written by hand that is no code fails here.
    @Test func everyExitCodeACommandsHelpNamesIsACode() throws {
        let codes = Set(Failure.Code.allCases.map(\.rawValue))
        var named = Set<Int32>()
        // "exit 65", "exits 3", "exit code 75", "status 1", and each "N meaning" of an
        // "Exit codes: 66 …; 65 …" list.
        let single = #/(?i:exits?(?: code)?|status) (\d+)/#
        let list = #/Exit codes: ([^.]*)/#
        let item = #/(?:^|; )(\d+) /#
        for command in commands().dropFirst() {
            let help = Stockroom.helpMessage(for: command, columns: 10_000)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            var numbers = help.matches(of: single).compactMap { Int32($0.output.1) }
            for match in help.matches(of: list) {
                numbers += String(match.output.1).matches(of: item).compactMap { Int32($0.output.1) }
            }
            for number in numbers {
                #expect(codes.contains(number), "`\(command._commandName) --help` names exit \(number), which is no Failure.Code")
            }
            named.formUnion(numbers)
        }
        // The check sees what it should: the lists above name most codes.
        #expect(named.isSuperset(of: [0, 1, 3, 64, 65, 66, 73, 74, 75, 130]), "\(named.sorted())")
    }
}
