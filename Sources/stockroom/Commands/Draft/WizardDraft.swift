import ArgumentParser
import DraftFlow
import FoundationEssentials
import Glibc
import Inventory
import StockroomStore

/// `stockroom draft wizard`: asks for a draft's fields one question at a time.
///
/// A thin front over ``DraftWizard``: it prints what ``WizardPresentation`` says, reads a line,
/// stores the answer the flow hands back through ``DraftRepository``, and carries out the
/// outcome. The questions, their order, the branch and the parsing all live in DraftFlow.
struct WizardDraft: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wizard",
        abstract: "Enter a draft at a terminal, one question at a time, then save, cancel or keep it.",
        discussion: """
            Asks for the name, the colour, whether any are in stock, then the quantity or whether \
            more are on back order, and shows the draft to save, edit, cancel or keep. Enter takes \
            the value in brackets; a line with just < goes back a step. Each answer is stored in \
            the draft as soon as it is given. Ctrl-C (exit \(Failure.Code.interrupted.rawValue)) or Ctrl-D (exit \(Failure.Code.success.rawValue)) stops and keeps \
            the draft, printing the command that resumes it; so does SIGTERM (exit \(Failure.Code.terminated.rawValue)). If another process saves or cancels \
            the draft meanwhile, the wizard says so and exits \(Failure.Code.notFound.rawValue). Needs a terminal: scripts use \
            `draft add` with options, then `draft save` (exit \(Failure.Code.usage.rawValue) otherwise).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("draft"), help: ArgumentHelp(
        "Resume this draft (id or id prefix): every question offers its stored value.", valueName: "draft-id"))
    var draftID: String?

    @Option(name: .customLong("duplicate"), help: ArgumentHelp(
        "Start from a copy of this item (id or id prefix): its values are the defaults.", valueName: "item-id"))
    var itemID: String?

    func validate() throws {
        if draftID != nil && itemID != nil {
            throw ValidationError("--draft and --duplicate cannot be used together")
        }
        try IDArgument.validate(draftID, .draft)
        try IDArgument.validate(itemID, .item)
    }

    func run() throws {
        // Before anything is opened: a script gets its answer at once and no file is created.
        guard WizardTerminal.isInteractive else {
            throw Failure.Message(code: .usage, description:
                "draft wizard needs a terminal on stdin and stdout; scripts use `stockroom draft add --name NAME [...]` then `draft save`")
        }
        if case let location = database.resolvedLocation(), draftID != nil || itemID != nil, location.isMissingFile {
            // Nothing to resume or copy in a file that does not exist; do not create it.
            let (record, id): (String, String) = draftID.map { ("draft", $0) } ?? ("item", itemID ?? "")
            throw Failure.Message(code: .notFound, description: "no \(record) with id '\(id)': there is no database at \(location)")
        }
        // Ctrl-C from here on is caught: one pressed while the draft is being created ends the
        // wizard at its first question, with the draft kept and the line that resumes it.
        let terminal = try WizardTerminal()
        defer { terminal.restore() }
        let store = try database.openStore()
        let entry: IdentifiedDraft
        if let draftID {
            entry = try store.drafts.draft(id: try store.drafts.resolveID(draftID))
        } else if let itemID {
            entry = try store.write { try store.drafts.startDuplicating(itemID: try store.items.resolveID(itemID)) }
        } else {
            entry = try store.write { try store.drafts.startAdding() }
        }

        let resume = WizardDraft.resumeCommand(draftID: entry.id, databaseOption: database.db)
        terminal.write("Draft \(entry.id.lowercasedString). \(WizardPresentation.help)\n")

        var wizard = DraftWizard(entry: entry)
        var reask: WizardReask?
        while true {
            // The draft is the database's, not this process's: another process may have saved,
            // cancelled or edited it while the last question waited. Say so, or take its
            // values; never write it back.
            wizard.refresh(from: try WizardDraft.stillOpen(entry, in: store))
            let lines = reask.map { WizardPresentation.reprompt(for: wizard.step, because: $0) }
                ?? WizardPresentation.prompt(for: wizard.step)
            terminal.write(lines.joined(separator: "\n"))
            let line: String
            let input = terminal.readLine()
            switch input {
            case .line(let text): line = text
            case .endOfInput:
                terminal.write("\nDraft kept; resume it with: \(resume)\n")
                return
            case .interrupted, .terminated:
                terminal.write("\nDraft kept; resume it with: \(resume)\n")
                throw Failure.Silent(code: input == .terminated ? .terminated : .interrupted)
            }
            _ = try WizardDraft.stillOpen(entry, in: store)
            reask = nil
            switch wizard.answering(line) {
            case .reask(let reason):
                reask = reason
            case .next(let next, let edit):
                if let edit {
                    try store.write { _ = try store.drafts.edit(id: entry.id, with: edit) }
                }
                wizard = next
            case .finished(.save):
                let item = try store.write { try store.drafts.save(id: entry.id) }
                terminal.write("Saved item \(item.id.lowercasedString)\n")
                return
            case .finished(.cancel):
                try store.write { try store.drafts.cancel(id: entry.id) }
                terminal.write("Draft cancelled; nothing was added.\n")
                return
            case .finished(.quit):
                terminal.write("Draft kept; resume it with: \(resume)\n")
                return
            }
        }
    }

    /// The draft as stored now.
    ///
    /// - Throws: a not-found failure (exit 66) naming what became of the draft when another
    ///   process saved or cancelled it.
    static func stillOpen(_ entry: IdentifiedDraft, in store: InventoryStore) throws -> IdentifiedDraft {
        do {
            return try store.drafts.draft(id: entry.id)
        } catch StoreError.notFound {
            let draft = entry.id.lowercasedString
            if (try? store.items.item(id: entry.draft.item.id)) != nil {
                throw Failure.Message(code: .notFound, description:
                    "draft \(draft) was saved by another process (item \(entry.draft.item.id.lowercasedString)) while the wizard waited; nothing more to do")
            }
            throw Failure.Message(code: .notFound, description:
                "draft \(draft) was cancelled by another process while the wizard waited; nothing was added")
        }
    }

    /// The command that resumes the draft, with the --db the wizard was given (a URI's
    /// password shown as `***`, as in every message: the line stays in the scrollback).
    static func resumeCommand(draftID: UUID, databaseOption: String?) -> String {
        let db = databaseOption.map { " --db " + shellQuoted(DatabaseLocation($0).description) } ?? ""
        return "stockroom\(db) draft wizard --draft \(draftID.lowercasedString)"
    }

    /// `text` as one shell word: unchanged when it is plainly safe, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+:,@%=".unicodeScalars.contains(scalar))
        }
        return safe && !text.isEmpty ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
