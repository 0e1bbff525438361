import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `draft wizard` end to end: the real binary in a real pseudo-terminal, typed at as a person
/// would, the database then read by other commands and the sqlite3 shell.
@Suite struct DraftWizardTerminalTests {
    let database = CLIDatabase()

    func wizard(_ arguments: String...) throws -> PseudoTerminalProcess {
        try PseudoTerminalProcess(Processes.stockroomPath, ["draft", "wizard"] + arguments,
                                  environment: ["STOCKROOM_DB": database.path])
    }

    /// The draft id the wizard announces on its first line.
    func draftID(_ terminal: PseudoTerminalProcess) throws -> String {
        try terminal.expect("Draft ")
        return String(try terminal.expect(".").dropLast())
    }

    func itemsJSON() throws -> [[String: Any]] {
        let listed = try database.stockroom("items", "list", "--format", "json")
        #expect(listed.status == 0, "\(listed)")
        return try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
    }

    func draftCount() throws -> String { try database.sqlite3("SELECT count(*) FROM drafts;") }

    @Test func inStockPathSavesTheItemAndPrintsItsID() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.typeLine("Keyboard")
        try terminal.expect("[none]: ")
        terminal.typeLine("Blue")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("")
        try terminal.expect("Quantity [1]: ")
        terminal.typeLine("100")
        let review = try terminal.expect("[q]uit and keep the draft: ")
        #expect(review.contains("draft:    \(draft)"), "\(review)")
        #expect(review.contains("status:   In stock: 100"), "\(review)")
        terminal.typeLine("s")
        try terminal.expect("Saved item ")
        let itemID = try terminal.expect("\n").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try terminal.waitForExit() == 0, "\(terminal.transcript)")
        let items = try itemsJSON()
        #expect(items.count == 1)
        #expect(items.first?["id"] as? String == itemID)
        #expect(items.first?["name"] as? String == "Keyboard" && items.first?["color"] as? String == "blue")
        #expect(try draftCount() == "0")
    }

    @Test func backOrderPathWithInvalidAnswersReasked() throws {
        let terminal = try wizard()
        try terminal.expect("Name: ")
        terminal.typeLine("   ")
        try terminal.expect("must not be empty or blank")
        try terminal.expect("Name: ")
        terminal.typeLine("Phone")
        try terminal.expect("[none]: ")
        terminal.typeLine("purple")
        try terminal.expect("not a colour")
        try terminal.expect("[none]: ")
        terminal.typeLine("GREEN")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("NO")
        try terminal.expect("On back order? [y/N]: ")
        terminal.typeLine("maybe")
        try terminal.expect("answer y or n")
        try terminal.expect("On back order? [y/N]: ")
        terminal.typeLine("y")
        let review = try terminal.expect("[q]uit and keep the draft: ")
        #expect(review.contains("Out of stock: on back order"), "\(review)")
        terminal.typeLine("save")
        try terminal.expect("Saved item ")
        #expect(try terminal.waitForExit() == 0)
        let item = try #require(try itemsJSON().first)
        #expect(item["name"] as? String == "Phone")
        #expect((item["status"] as? [String: Any])?["isOnBackOrder"] as? Bool == true)
    }

    @Test func backNavigationKeepsEveryAnswerAsTheDefault() throws {
        let terminal = try wizard()
        try terminal.expect("Name: ")
        terminal.typeLine("<")
        try terminal.expect("Name: ")          // at the first step, < stays there
        terminal.typeLine("Lamp")
        try terminal.expect("[none]: ")
        terminal.typeLine("<")
        try terminal.expect("Name [Lamp]: ")
        terminal.typeLine("")
        try terminal.expect("[none]: ")
        terminal.typeLine("yellow")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("y")
        try terminal.expect("Quantity [1]: ")
        terminal.typeLine("4")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.typeLine("<")
        try terminal.expect("Quantity [4]: ")
        terminal.typeLine("<")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("n")                 // the other branch
        try terminal.expect("On back order? [y/N]: ")
        terminal.typeLine("")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.typeLine("e")                 // edit: back to the name, answers kept
        try terminal.expect("Name [Lamp]: ")
        terminal.typeLine("")
        try terminal.expect("[yellow]: ")
        terminal.typeLine("")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [y/N]: ")
        terminal.typeLine("")
        try terminal.expect("On back order? [y/N]: ")
        terminal.typeLine("")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.typeLine("s")
        try terminal.expect("Saved item ")
        #expect(try terminal.waitForExit() == 0)
        let item = try #require(try itemsJSON().first)
        #expect(item["name"] as? String == "Lamp" && item["color"] as? String == "yellow")
        #expect((item["status"] as? [String: Any])?["case"] as? String == "outOfStock")
    }

    @Test func controlCKeepsTheDraftAndTheResumeCommandOffersEveryAnswer() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.typeLine("Desk")
        try terminal.expect("[none]: ")
        terminal.typeLine("white")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("y")
        try terminal.expect("Quantity [1]: ")
        terminal.typeLine("3")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.pressControlC()
        try terminal.expect("Draft kept; resume it with: stockroom draft wizard --draft \(draft)")
        #expect(try terminal.waitForExit() == 130, "\(terminal.transcript)")
        #expect(!terminal.transcript.contains("error:"), "an interrupt is not an error: one line, the resume command")
        #expect(terminal.localModes == terminal.initialLocalModes, "the terminal is left as it was found")
        #expect(terminal.localModes & tcflag_t(ICANON | ECHO | ISIG) == tcflag_t(ICANON | ECHO | ISIG))
        // Every answer was stored as it was given.
        let shown = try database.stockroom("draft", "show", draft)
        #expect(shown.lines.contains("name:     Desk") && shown.lines.contains("status:   In stock: 3"), "\(shown)")

        let resumed = try wizard("--draft", draft)
        #expect(try draftID(resumed) == draft)
        try resumed.expect("Name [Desk]: ")
        resumed.typeLine("")
        try resumed.expect("[white]: ")
        resumed.typeLine("")
        try resumed.expect("Location (optional, Enter skips): ")
        resumed.typeLine("")
        try resumed.expect("In stock? [Y/n]: ")
        resumed.typeLine("")
        try resumed.expect("Quantity [3]: ")
        resumed.pressControlD()                // Ctrl-D: like quit, exit 0
        try resumed.expect("Draft kept; resume it with: stockroom draft wizard --draft \(draft)")
        #expect(try resumed.waitForExit() == 0)
        #expect(try draftCount() == "1")
        #expect(try itemsJSON().isEmpty)
    }

    @Test func controlCAtTheFirstQuestionKeepsTheNewDraft() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.type("half a na")
        terminal.pressControlC()
        try terminal.expect("--draft \(draft)")
        #expect(try terminal.waitForExit() == 130)
        #expect(try database.sqlite3("SELECT id, name FROM drafts;") == "\(draft)|")
    }

    @Test func cancelDeletesTheDraftAndAddsNothing() throws {
        let terminal = try wizard()
        try terminal.expect("Name: ")
        terminal.typeLine("Chair")
        try terminal.expect("[none]: ")
        terminal.typeLine("")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("")
        try terminal.expect("Quantity [1]: ")
        terminal.typeLine("")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.typeLine("c")
        try terminal.expect("Draft cancelled; nothing was added.")
        #expect(try terminal.waitForExit() == 0)
        #expect(try draftCount() == "0")
        #expect(try itemsJSON().isEmpty)
    }

    @Test func quitKeepsTheDraft() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.typeLine("Shelf")
        try terminal.expect("[none]: ")
        terminal.typeLine("")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("")
        try terminal.expect("Quantity [1]: ")
        terminal.typeLine("")
        try terminal.expect("[q]uit and keep the draft: ")
        terminal.typeLine("q")
        try terminal.expect("resume it with: stockroom draft wizard --draft \(draft)")
        #expect(try terminal.waitForExit() == 0)
        #expect(try database.sqlite3("SELECT name FROM drafts;") == "Shelf")
    }

    @Test func duplicateStartsFromTheItemsValues() throws {
        let source = try database.stockroom("items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "100").output
        let terminal = try wizard("--duplicate", String(source.prefix(8)))
        try terminal.expect("Name [Keyboard]: ")
        terminal.typeLine("Keyboard (ISO)")
        try terminal.expect("[blue]: ")
        terminal.typeLine("")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("")
        try terminal.expect("Quantity [100]: ")
        terminal.typeLine("")
        let review = try terminal.expect("[q]uit and keep the draft: ")
        #expect(review.contains("duplicating item \(source)"), "\(review)")
        terminal.typeLine("s")
        try terminal.expect("Saved item ")
        #expect(try terminal.waitForExit() == 0)
        #expect(try itemsJSON().compactMap { $0["name"] as? String } == ["Keyboard", "Keyboard (ISO)"])
    }

    @Test func anotherProcessSavingTheDraftStopsTheWizardWhichNeverRecreatesIt() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.typeLine("Router")
        try terminal.expect("[none]: ")
        let saved = try database.stockroom("draft", "save", draft)
        #expect(saved.status == 0, "\(saved)")
        terminal.typeLine("red")
        try terminal.expect("error: draft \(draft) was saved by another process (item \(saved.output))")
        #expect(try terminal.waitForExit() == 66)
        #expect(try draftCount() == "0")
        let items = try itemsJSON()
        #expect(items.count == 1 && items.first?["color"] is NSNull, "the wizard's late answer was not written")
    }

    @Test func anotherProcessCancellingTheDraftStopsTheWizard() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        #expect(try database.stockroom("draft", "cancel", draft).status == 0)
        terminal.typeLine("Router")
        try terminal.expect("error: draft \(draft) was cancelled by another process")
        #expect(try terminal.waitForExit() == 66)
        #expect(try draftCount() == "0")
        #expect(try itemsJSON().isEmpty)
    }

    @Test func anotherProcessEditingTheDraftShowsInTheReview() throws {
        let terminal = try wizard()
        let draft = try draftID(terminal)
        try terminal.expect("Name: ")
        terminal.typeLine("Router")
        try terminal.expect("[none]: ")
        terminal.typeLine("")
        try terminal.expect("Location (optional, Enter skips): ")
        terminal.typeLine("")
        try terminal.expect("In stock? [Y/n]: ")
        terminal.typeLine("")
        try terminal.expect("Quantity [1]: ")
        #expect(try database.stockroom("draft", "edit", draft, "--color", "red").status == 0)
        terminal.typeLine("2")
        let review = try terminal.expect("[q]uit and keep the draft: ")
        #expect(review.contains("colour:   red") && review.contains("status:   In stock: 2"), "\(review)")
        terminal.typeLine("s")
        try terminal.expect("Saved item ")
        #expect(try terminal.waitForExit() == 0)
        #expect(try itemsJSON().first?["color"] as? String == "red")
    }

    @Test func notATerminalIsRefusedAtOnceAndCreatesNothing() throws {
        for arguments in [["draft", "wizard"], ["draft", "wizard", "--draft", "0193"], ["draft", "wizard", "--duplicate", "0193"]] {
            let result = try database.stockroom(arguments: arguments)
            expectFailure(result, code: .usage, mentioning: "`stockroom draft add")
            #expect(!database.exists, "no database file is created")
        }
    }

    @Test func draftAndDuplicateTogetherAreABadCommandLine() throws {
        let result = try database.stockroom("draft", "wizard", "--draft", "0193", "--duplicate", "0194")
        expectFailure(result, code: .usage, mentioning: "--draft and --duplicate cannot be used together")
        #expect(!database.exists)
    }

    @Test func stdoutNotATerminalIsRefusedToo() throws {
        let terminal = try PseudoTerminalProcess("/bin/sh", ["-c", "\"$0\" draft wizard > /dev/null; echo \"exit $?\"", Processes.stockroomPath],
                                                 environment: ["STOCKROOM_DB": database.path])
        try terminal.expect("error: draft wizard needs a terminal")
        try terminal.expect("exit 64")
        #expect(try terminal.waitForExit() == 0)
        #expect(!database.exists)
    }

    @Test func unknownDraftOrItemIsNotFoundAndCreatesNothing() throws {
        let missingFile = try wizard("--draft", "01234567")
        try missingFile.expect("error: no draft with id '01234567'")
        #expect(try missingFile.waitForExit() == 66)
        #expect(!database.exists, "a missing database file is not created")

        #expect(try database.stockroom("items", "add", "--name", "Keyboard").status == 0)
        let before = try database.contents()
        let unknownDraft = try wizard("--draft", "01234567")
        try unknownDraft.expect("error: no draft with id '01234567'")
        #expect(try unknownDraft.waitForExit() == 66)
        let unknownItem = try wizard("--duplicate", "01234567")
        try unknownItem.expect("error: no item with id '01234567'")
        #expect(try unknownItem.waitForExit() == 66)
        #expect(try database.contents() == before)
        #expect(try draftCount() == "0")
    }
}
