import DraftFlow
import Foundation
import Inventory
import Testing

/// Every path through the wizard, driven by typed lines, with no terminal and no database.
@Suite struct DraftWizardTests {
    let fresh = IdentifiedDraft(draft: Draft.newItem())

    /// Feeds `lines` one by one and returns the wizard, the edits it asked to store and the
    /// reasons it gave for re-asking; stops at an outcome.
    struct Run {
        var wizard: DraftWizard
        var stored: [ItemEdit] = []
        var reasons: [WizardReask] = []
        var outcome: DraftWizard.Outcome?
    }

    func run(_ lines: [String], from entry: IdentifiedDraft? = nil) -> Run {
        var result = Run(wizard: DraftWizard(entry: entry ?? fresh))
        for line in lines {
            #expect(result.outcome == nil, "line \(line) typed after the wizard finished")
            switch result.wizard.answering(line) {
            case .next(let next, let edit):
                if let edit { result.stored.append(edit) }
                result.wizard = next
            case .reask(let reason):
                result.reasons.append(reason)
            case .finished(let outcome):
                result.outcome = outcome
            }
        }
        return result
    }

    func kinds(_ lines: [String], from entry: IdentifiedDraft? = nil) -> [WizardStep.Kind] {
        var wizard = DraftWizard(entry: entry ?? fresh)
        var visited = [wizard.step.kind]
        for line in lines {
            if case .next(let next, _) = wizard.answering(line) { wizard = next }
            visited.append(wizard.step.kind)
        }
        return visited
    }

    @Test func inStockBranchAsksTheQuantityThenReviewsAndSaves() {
        let result = run(["Keyboard", "BLUE", "Shelf B3", "", "100", "s"])
        #expect(result.outcome == .save)
        #expect(result.reasons.isEmpty)
        let item = result.wizard.entry.draft.item
        #expect(item.name == "Keyboard" && item.color == .blue && item.status == .inStock(quantity: 100) && item.location?.text == "Shelf B3")
        #expect(kinds(["Keyboard", "BLUE", "", "", "100"]) == [.name, .color, .location, .inStock, .quantity, .review])
        // Every answer is handed back to be stored as it is given (Enter on "In stock?" kept yes).
        #expect(result.stored == [ItemEdit(name: "Keyboard"), ItemEdit(color: .set(.blue)), ItemEdit(location: .set(ItemLocation(stored: "Shelf B3"))),
                                  ItemEdit(status: .inStock(quantity: 100))])
    }

    @Test func outOfStockBranchAsksAboutTheBackOrder() {
        #expect(kinds(["Phone", "", "", "n", "y"]) == [.name, .color, .location, .inStock, .backOrder, .review])
        let result = run(["Phone", "", "", "No", "YES", "q"])
        #expect(result.outcome == .quit)
        #expect(result.wizard.entry.draft.item.status == .outOfStock(isOnBackOrder: true))
        #expect(result.stored == [ItemEdit(name: "Phone"), ItemEdit(status: .outOfStock(isOnBackOrder: false)),
                                  ItemEdit(status: .outOfStock(isOnBackOrder: true))])
        #expect(run(["Phone", "", "", "n", ""]).wizard.entry.draft.item.status == .outOfStock(isOnBackOrder: false))
    }

    @Test func backGoesOneStepFromEveryStepAndStaysAtTheName() {
        #expect(kinds(["<"]) == [.name, .name])
        #expect(kinds(["A", "<"]) == [.name, .color, .name])
        #expect(kinds(["A", "", "<"]) == [.name, .color, .location, .color])
        #expect(kinds(["A", "", "", "<"]) == [.name, .color, .location, .inStock, .location])
        #expect(kinds(["A", "", "", "", "<"]) == [.name, .color, .location, .inStock, .quantity, .inStock])
        #expect(kinds(["A", "", "", "n", "<"]) == [.name, .color, .location, .inStock, .backOrder, .inStock])
        #expect(kinds(["A", "", "", "", "3", "<"]) == [.name, .color, .location, .inStock, .quantity, .review, .quantity])
        #expect(kinds(["A", "", "", "n", "", " < "]) == [.name, .color, .location, .inStock, .backOrder, .review, .backOrder])
        // Going back stores nothing, and the answers given stay as the defaults.
        let result = run(["A", "red", "", "", "7", "<"])
        #expect(result.wizard.step == .quantity(current: 7))
        #expect(result.stored.count == 3)
    }

    @Test func changingTheBranchOnTheWayBackTakesTheOtherPath() {
        #expect(kinds(["A", "", "", "", "5", "<", "<", "n", "y"]) ==
                [.name, .color, .location, .inStock, .quantity, .review, .quantity, .inStock, .backOrder, .review])
        // Back to yes after no: the quantity given before is offered again, not forgotten.
        let result = run(["A", "", "", "", "5", "<", "<", "n", "<", "y"])
        #expect(result.wizard.step == .quantity(current: 5))
        #expect(result.wizard.entry.draft.item.status == .inStock(quantity: 5))
    }

    @Test func blankNamesAreReaskedWithTheDomainsReason() {
        for line in ["", "   ", "\t", " \u{3000} "] {
            let result = run([line])
            #expect(result.reasons == [.invalidName(reason: InventoryError.blankName.description)], "\(line.debugDescription)")
            #expect(result.wizard.step == .name(current: ""))
            #expect(result.stored.isEmpty)
        }
        #expect(run(["  Lamp  "]).wizard.entry.draft.item.name == "Lamp")
    }

    @Test func everyKindOfInvalidAnswerReasksTheSameStep() {
        let cases: [([String], WizardReask, WizardStep)] = [
            (["A", "purple"], .unknownColor, .color(current: nil)),
            (["A", "", "a\tb"], .invalidLocation(reason: InventoryError.controlCharacterInText(.location, 9, position: 2).description), .location(current: nil)),
            (["A", "", String(repeating: "x", count: 201)], .invalidLocation(reason: InventoryError.textTooLong(.location, 201).description), .location(current: nil)),
            (["A", "", "", "maybe"], .notYesOrNo(defaultAnswer: true), .inStock(current: true)),
            (["A", "", "", "yep"], .notYesOrNo(defaultAnswer: true), .inStock(current: true)),
            (["A", "", "", "", "0"], .invalidQuantity, .quantity(current: 1)),
            (["A", "", "", "", "-3"], .invalidQuantity, .quantity(current: 1)),
            (["A", "", "", "", "2.5"], .invalidQuantity, .quantity(current: 1)),
            (["A", "", "", "", "ten"], .invalidQuantity, .quantity(current: 1)),
            (["A", "", "", "", "99999999999999999999"], .invalidQuantity, .quantity(current: 1)),
            (["A", "", "", "n", "x"], .notYesOrNo(defaultAnswer: false), .backOrder(current: false)),
        ]
        for (lines, reason, step) in cases {
            let result = run(lines)
            #expect(result.reasons == [reason], "\(lines)")
            #expect(result.wizard.step == step, "\(lines)")
            #expect(result.outcome == nil)
        }
        // The review has no default: Enter and unknown words are asked again; saving is explicit.
        for line in ["", "x", "sav", "yes"] {
            let result = run(["A", "", "", "", "", line])
            #expect(result.reasons == [.unknownReviewChoice], "\(line)")
            #expect(result.wizard.step.kind == .review)
            #expect(result.outcome == nil)
        }
    }

    @Test func yesNoTakesEveryWordInAnyCaseAndEnterTakesTheDefault() {
        for (text, expected) in [("y", true), ("Y", true), ("yes", true), ("YeS", true), ("n", false), ("N", false), ("no", false), ("NO", false)] {
            #expect(WizardInput.yesNo(text, default: !expected) == .success(expected))
        }
        #expect(WizardInput.yesNo("", default: true) == .success(true))
        #expect(WizardInput.yesNo("", default: false) == .success(false))
    }

    @Test func coloursInAnyCaseNoneClearsAndEnterKeeps() {
        #expect(WizardInput.color("Green", current: nil) == .success(.green))
        #expect(WizardInput.color("", current: .red) == .success(.red))
        #expect(WizardInput.color("", current: nil) == .success(nil))
        #expect(WizardInput.color("NONE", current: .red) == .success(nil))
        let cleared = run(["A", "none"], from: IdentifiedDraft(draft: .adding(Item(name: "A", color: .red))))
        #expect(cleared.stored == [ItemEdit(color: .remove)])
        #expect(cleared.wizard.entry.draft.item.color == nil)
    }

    @Test func locationsAreOptionalEnterKeepsAndNoneClears() {
        #expect(WizardInput.location("  Shelf B3 ", current: nil) == .success(ItemLocation(stored: "Shelf B3")))
        #expect(WizardInput.location("", current: nil) == .success(nil))
        #expect(WizardInput.location("", current: ItemLocation(stored: "Attic")) == .success(ItemLocation(stored: "Attic")))
        #expect(WizardInput.location("None", current: ItemLocation(stored: "Attic")) == .success(nil))
        let cleared = run(["A", "", "none"], from: IdentifiedDraft(draft: .adding(Item(name: "A", location: ItemLocation(stored: "Attic")))))
        #expect(cleared.stored == [ItemEdit(location: .remove)])
        #expect(cleared.wizard.step.kind == .inStock)
        #expect(WizardPresentation.prompt(for: .location(current: nil)) == ["Location (optional, Enter skips): "])
        #expect(WizardPresentation.prompt(for: .location(current: ItemLocation(stored: "Attic"))) == ["Location (optional, or none) [Attic]: "])
    }

    @Test func reviewChoices() {
        for (line, outcome) in [("s", DraftWizard.Outcome.save), ("SAVE", .save), ("c", .cancel), ("Cancel", .cancel), ("q", .quit), ("quit", .quit)] {
            #expect(run(["A", "", "", "", "", line]).outcome == outcome, "\(line)")
        }
    }

    @Test func resumingOffersEveryStoredValueSoEnterWalksThrough() {
        let stored = IdentifiedDraft(draft: .adding(Item(name: "Lamp", color: .yellow, status: .outOfStock(isOnBackOrder: true),
                                                         location: ItemLocation(stored: "Attic"))))
        var wizard = DraftWizard(entry: stored)
        var steps: [WizardStep] = [wizard.step]
        var edits: [ItemEdit] = []
        for _ in 0..<5 {
            guard case .next(let next, let edit) = wizard.answering("") else { Issue.record("Enter did not move on"); return }
            if let edit { edits.append(edit) }
            wizard = next
            steps.append(wizard.step)
        }
        #expect(steps == [.name(current: "Lamp"), .color(current: .yellow), .location(current: ItemLocation(stored: "Attic")), .inStock(current: false),
                          .backOrder(current: true), .review(stored)])
        #expect(edits.isEmpty, "Enter on stored values changes nothing, so nothing is written")
        let inStock = IdentifiedDraft(draft: .adding(Item(name: "Lamp", status: .inStock(quantity: 12))))
        #expect(kinds(["", "", "", ""], from: inStock) == [.name, .color, .location, .inStock, .quantity])
        #expect(run(["", "", "", ""], from: inStock).wizard.step == .quantity(current: 12))
        #expect(run(["", "", "", "", ""], from: inStock).wizard.entry == inStock)
    }

    @Test func editFromTheReviewStartsAgainWithEveryAnswerAsTheDefault() {
        let result = run(["Desk", "white", "", "n", "y", "e"])
        #expect(result.outcome == nil)
        #expect(result.wizard.step == .name(current: "Desk"))
        let again = run(["Desk", "white", "", "n", "y", "E", "", "", "", ""])
        #expect(again.wizard.step == .backOrder(current: true))
        let changed = run(["Desk", "white", "", "n", "y", "edit", "Desk 2", "", "", "y", "", "s"])
        #expect(changed.outcome == .save)
        #expect(changed.wizard.entry.draft.item == Item(id: fresh.draft.item.id, name: "Desk 2", color: .white, status: .inStock(quantity: 1)))
    }

    @Test func aDuplicateStartsWithTheSourcesValuesAndStaysADuplicate() {
        let source = Item(name: "Keyboard", color: .blue, status: .inStock(quantity: 100))
        let copy = IdentifiedDraft(draft: Draft.duplicate(of: source))
        let result = run(["", "", "", "", ""], from: copy)
        #expect(result.wizard.step == .review(copy))
        #expect(result.stored.isEmpty)
        let renamed = run(["Keyboard (ISO)", "", "", "", "5", "s"], from: copy)
        #expect(renamed.outcome == .save)
        #expect(renamed.wizard.entry.draft.sourceItemID == source.id)
        #expect(renamed.wizard.entry.draft.item.name == "Keyboard (ISO)")
        #expect(renamed.wizard.entry.draft.item.id != source.id)
    }

    @Test func refreshingFromTheStoredDraftChangesTheDefaultsAndFollowsItsBranch() {
        var wizard = run(["Desk", "", "", "", "3"]).wizard
        #expect(wizard.step.kind == .review)
        var stored = wizard.entry
        stored.draft.item.color = .black
        wizard.refresh(from: stored)
        #expect(wizard.step == .review(stored))
        var asked = run(["Desk", "", "", ""]).wizard
        #expect(asked.step == .quantity(current: 1))
        var elsewhere = asked.entry
        elsewhere.draft.item.status = .inStock(quantity: 9)
        asked.refresh(from: elsewhere)
        #expect(asked.step == .quantity(current: 9))
        elsewhere.draft.item.status = .outOfStock(isOnBackOrder: true)
        asked.refresh(from: elsewhere)
        #expect(asked.step == .name(current: "Desk"), "the quantity is off the stored draft's path")
        let unchanged = run(["Desk"]).wizard
        var same = unchanged
        same.refresh(from: IdentifiedDraft(draft: Draft.newItem()))
        #expect(same == unchanged, "another draft is ignored")
    }

    @Test func saveIsReaskedWhenTheStoredNameWasBlankedElsewhere() {
        var wizard = run(["Desk", "", "", "", ""]).wizard
        var blanked = wizard.entry
        blanked.draft.item.name = " "
        wizard.refresh(from: blanked)
        #expect(wizard.answering("s") == .reask(.cannotSave(reason: InventoryError.blankName.description)))
        guard case .next(let editing, nil) = wizard.answering("e") else { Issue.record("edit did not go back"); return }
        #expect(editing.step == .name(current: " "))
    }

    @Test func anAnswerForAnotherStepLeavesTheWizardWhereItIs() {
        let wizard = DraftWizard(entry: fresh)
        #expect(wizard.transition(.quantity(3)) == .next(wizard, storing: nil))
    }

    @Test func thePathIsTheOnePlaceThatOrdersAndBranches() {
        #expect(DraftWizard.path(for: Item(name: "A", status: .inStock(quantity: 2))) == [.name, .color, .location, .inStock, .quantity, .review])
        #expect(DraftWizard.path(for: Item(name: "A", status: .outOfStock(isOnBackOrder: false))) == [.name, .color, .location, .inStock, .backOrder, .review])
    }
    @Test("rebuilt from the stored draft, its step and its memory, the wizard is the one kept in memory, at every step",
          arguments: [["Lamp", "", "", "y", "5", "<", "<", "n", "<", "y"], ["Lamp", "red", "Attic", "n", "y", "<", "<", "y", "9", "<", "<", "n"],
                      ["Lamp", "", "", "y", "", "e", "", "", "", "n", "", "<", "<", "y", "3"]])
    func rebuiltFromMemory(lines: [String]) {
        var wizard = DraftWizard(entry: fresh)
        for line in lines {
            guard case .next(let next, _) = wizard.answering(line) else { continue }
            wizard = next
            // What a web front keeps between two requests: the stored draft, the step's name, the memory.
            let rebuilt = DraftWizard(entry: wizard.entry, at: wizard.step.kind, remembering: wizard.memory)
            #expect(rebuilt == wizard, "after \(line)")
        }
        #expect(wizard.memory.quantity != Status.minimumQuantity)
    }
}
