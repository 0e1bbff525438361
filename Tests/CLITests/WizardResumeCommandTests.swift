import Foundation
@testable import stockroom
import Testing

/// The line the wizard prints when it stops: a command to paste back into a shell.
@Suite struct WizardResumeCommandTests {
    let id = UUID(uuidString: "0193A1F2-5C3E-7000-8000-000000000001")!

    @Test func namesTheDraftAndTheDatabaseGivenWithDb() {
        #expect(WizardDraft.resumeCommand(draftID: id, databaseOption: nil) ==
                "stockroom draft wizard --draft 0193a1f2-5c3e-7000-8000-000000000001")
        #expect(WizardDraft.resumeCommand(draftID: id, databaseOption: "/data/inv.sqlite") ==
                "stockroom --db /data/inv.sqlite draft wizard --draft 0193a1f2-5c3e-7000-8000-000000000001")
    }

    /// The line stays on the screen and in the scrollback: a password in a `--db` URI is shown
    /// as `***`, as in every message (the resumed command then takes it from `PGPASSFILE` or
    /// the user).
    @Test func neverShowsAPasswordFromTheURI() {
        let line = WizardDraft.resumeCommand(draftID: id, databaseOption: "postgresql://ann:Secr3t@db1/shop?sslmode=require")
        #expect(line == "stockroom --db 'postgresql://ann:***@db1/shop?sslmode=require' draft wizard --draft 0193a1f2-5c3e-7000-8000-000000000001")
    }

    @Test func quotesPathsTheShellWouldSplitOrExpand() {
        #expect(WizardDraft.shellQuoted("/tmp/my stock.sqlite") == "'/tmp/my stock.sqlite'")
        #expect(WizardDraft.shellQuoted("it's $HOME") == #"'it'\''s $HOME'"#)
        #expect(WizardDraft.shellQuoted("~/inv.sqlite") == "'~/inv.sqlite'")
        #expect(WizardDraft.shellQuoted("") == "''")
    }
}
