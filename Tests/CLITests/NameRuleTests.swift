import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// Names through the binary: control characters and blank names refused before anything is
/// written, and rows written by hand in `sqlite3` never printed raw.
@Suite struct NameRuleTests {
    let database = CLIDatabase()

    init() throws {
        #expect(try database.stockroom("items", "add", "--name", "Keyboard").status == 0)
    }

    @Test(arguments: [
        ["items", "add", "--name", "abc\u{1B}[2J"],
        ["items", "add", "--name", "two\nlines"],
        ["items", "add", "--name", "csi\u{9B}1m"],
        ["draft", "add", "--name", "tab\there"],
        ["items", "add", "--name", "\u{200B}\u{00A0}"],
        ["items", "add", "--name", "\u{FEFF}"],
    ])
    func badNamesAreRefusedAndTheFileIsUnchanged(arguments: [String]) throws {
        let before = try database.contents()
        let result = try database.stockroom(arguments: arguments)
        expectFailure(result, code: .usage)
        #expect(try database.contents() == before)
    }

    @Test func theMessageNamesTheControlCharacterAndItsPosition() throws {
        let result = try database.stockroom("items", "add", "--name", "abc\u{1B}[2J")
        #expect(result.errorMessage.contains("control character (U+001B) at position 4"), "\(result)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func updatingAnItemOrADraftToABadNameIsRefused() throws {
        let id = try database.stockroom("items", "list", "--format", "csv").lines[1].prefix(36)
        expectFailure(try database.stockroom("items", "update", String(id), "--name", "x\u{7}"), code: .usage)
        let draft = try database.stockroom("draft", "add").output
        expectFailure(try database.stockroom("draft", "edit", draft, "--name", "x\u{1B}"), code: .usage)
    }

    @Test func rowsWrittenByHandAreNeverPrintedRawAndCheckReportsThem() throws {
        _ = try database.sqlite3("UPDATE items SET name = 'evil' || char(27) || '[31mred' || char(10) || 'x' || char(155)")
        for arguments in [["items", "list"], ["items", "list", "--format", "json"],
                          ["query", "SELECT name FROM items"], ["query", "--format", "json", "SELECT name FROM items"]] {
            let result = try database.stockroom(arguments: arguments)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "\(arguments)")
            #expect(result.stdout.contains(#"evil\u001b[31mred\nx\u009b"#), "\(arguments): \(result.stdout)")
        }
        let csv = try database.stockroom("items", "list", "--format", "csv")
        #expect(csv.stdout.contains("\"evil\u{1B}[31mred\nx\u{9B}\""), "CSV quotes the field: \(csv)")

        let check = try database.stockroom("check")
        expectFailure(check, code: .dataError)
        #expect(check.stdout.contains("control character (U+001B) at position 5"), "\(check)")
    }

    @Test func invalidUTF8InAnArgumentIsRefusedNamingItsPosition() throws {
        // Foundation's Process cannot pass raw bytes; bash's printf can.
        let result = try Processes.run("/bin/bash", ["-c", #"exec "$0" items add --name "$(printf 'a\377b')""#, Processes.stockroomPath],
                                       environment: ["STOCKROOM_DB": database.path])
        expectFailure(result, code: .usage)
        #expect(result.errorMessage.hasPrefix("argument 4 is not valid UTF-8"), "\(result)")
        #expect(try database.stockroom("items", "list", "--format", "csv").lines.count == 2)
    }
}
