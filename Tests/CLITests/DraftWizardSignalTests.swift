import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `draft wizard` stopped by a signal rather than at the keyboard, in a real pseudo-terminal.
/// SIGTERM (`kill PID`, a session being closed) is caught as Ctrl-C is: the draft is kept and
/// the line that resumes it printed, exit 143. SIGKILL cannot be caught: the draft, created
/// when the wizard starts (its first line names it), stays, and `draft list` shows it.
@Suite struct DraftWizardSignalTests {
    let database = CLIDatabase()

    func wizard(_ arguments: String...) throws -> PseudoTerminalProcess {
        try PseudoTerminalProcess(Processes.stockroomPath, ["draft", "wizard"] + arguments,
                                  environment: ["STOCKROOM_DB": database.path])
    }

    func draftID(_ terminal: PseudoTerminalProcess) throws -> String {
        try terminal.expect("Draft ")
        return String(try terminal.expect(".").dropLast())
    }

    @Test func sigtermBeforeTheFirstAnswerKeepsTheDraftAndPrintsTheResumeLine() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.send(SIGTERM)
        try terminal.expect("Draft kept; resume it with: stockroom draft wizard --draft \(draft)")
        #expect(try terminal.waitForExit() == Failure.Code.terminated.rawValue)
        #expect(!terminal.transcript.contains("error:"))
        #expect(try database.sqlite3("SELECT id, name FROM drafts;") == "\(draft)|")
    }

    @Test func sigtermAfterAnAnswerKeepsIt() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.typeLine("Desk")
        try terminal.expect("[none]: ")
        terminal.send(SIGTERM)
        try terminal.expect("Draft kept; resume it with: stockroom draft wizard --draft \(draft)")
        #expect(try terminal.waitForExit() == Failure.Code.terminated.rawValue)
        #expect(try database.sqlite3("SELECT name FROM drafts WHERE id = '\(draft)';") == "Desk")
    }

    @Test func sigkillBeforeTheFirstAnswerLeavesADraftThatDraftListShowsAndTheWizardResumes() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.send(SIGKILL)
        #expect(try terminal.waitForExit() == 128 + SIGKILL)
        let listed = try database.stockroom("draft", "list")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.lines.contains { $0.hasPrefix(draft) && $0.contains("(no name)") }, "\(listed)")
        let resumed = try wizard("--draft", draft)
        #expect(try draftID(resumed) == draft)
        try resumed.expect("Name: ")
        resumed.pressControlD()
        #expect(try resumed.waitForExit() == 0)
    }
}
