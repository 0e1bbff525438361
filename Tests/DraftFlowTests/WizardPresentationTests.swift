import DraftFlow
import Foundation
import Inventory
import Testing

/// The wizard's wording as pure functions of its steps.
@Suite struct WizardPresentationTests {
    @Test func promptsShowTheDefaultAndTheChoices() {
        #expect(WizardPresentation.prompt(for: .name(current: "")) == ["Name: "])
        #expect(WizardPresentation.prompt(for: .name(current: "Lamp")) == ["Name [Lamp]: "])
        #expect(WizardPresentation.prompt(for: .color(current: nil)) == ["Colour (black, blue, green, red, white, yellow, or none) [none]: "])
        #expect(WizardPresentation.prompt(for: .color(current: .red)).last?.hasSuffix("[red]: ") == true)
        #expect(WizardPresentation.prompt(for: .inStock(current: true)) == ["In stock? [Y/n]: "])
        #expect(WizardPresentation.prompt(for: .inStock(current: false)) == ["In stock? [y/N]: "])
        #expect(WizardPresentation.prompt(for: .quantity(current: 4)) == ["Quantity [4]: "])
        #expect(WizardPresentation.prompt(for: .backOrder(current: false)) == ["On back order? [y/N]: "])
    }

    @Test func theReviewIsTheDraftAsDraftShowPresentsItThenTheChoices() {
        let entry = IdentifiedDraft(draft: .adding(Item(name: "Lamp", color: .yellow, status: .outOfStock(isOnBackOrder: true))))
        let lines = WizardPresentation.prompt(for: .review(entry))
        #expect(lines.first == "")
        #expect(Array(lines.dropFirst().dropLast()) == Presentation.details(for: entry))
        #expect(lines.contains("status:   Out of stock: on back order"))
        #expect(lines.last == "[s]ave / [e]dit / [c]ancel / [q]uit and keep the draft: ")
    }

    @Test func askingAgainShowsTheReasonThenOnlyThePrompt() {
        let entry = IdentifiedDraft(draft: Draft.newItem())
        #expect(WizardPresentation.reprompt(for: .review(entry), because: .unknownReviewChoice) ==
                ["  " + WizardReask.unknownReviewChoice.description, WizardPresentation.reviewChoices])
        #expect(WizardPresentation.reprompt(for: .quantity(current: 2), because: .invalidQuantity) ==
                ["  " + WizardReask.invalidQuantity.description, "Quantity [2]: "])
    }

    @Test func everyReasonIsOneLine() {
        let reasons: [WizardReask] = [.invalidName(reason: InventoryError.blankName.description), .unknownColor,
                                      .notYesOrNo(defaultAnswer: true), .notYesOrNo(defaultAnswer: false), .invalidQuantity, .unknownReviewChoice,
                                      .cannotSave(reason: InventoryError.blankName.description)]
        for reason in reasons {
            #expect(!reason.description.isEmpty && !reason.description.contains("\n"))
        }
        #expect(WizardReask.notYesOrNo(defaultAnswer: false).description.contains("Enter for no"))
        #expect(WizardReask.invalidName(reason: InventoryError.blankName.description).description.hasPrefix(InventoryError.blankName.description))
    }
}
