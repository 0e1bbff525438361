import Inventory
import TextFormats

/// How the wizard reads to a person: pure functions of a step, as `Presentation` is of the
/// model. A front prints these; it writes no wording of its own.
public enum WizardPresentation {
    /// The lines shown for `step`, the last one being the prompt itself (printed without a
    /// line break, the answer typed after it).
    public static func prompt(for step: WizardStep) -> [String] {
        switch step {
        case .name(let current):
            return [Item.isBlank(current) ? "Name: " : "Name [\(Presentation.displayName(current))]: "]
        case .color(let current):
            let choices = Color.allCases.map(\.rawValue).joined(separator: ", ")
            return ["Colour (\(choices), or none) [\(current?.rawValue ?? "none")]: "]
        case .location(let current):
            return [current.map { "Location (optional, or none) [\(ControlCharacters.escaped($0.text))]: " } ?? "Location (optional, Enter skips): "]
        case .inStock(let current):
            return ["In stock? \(yesNoChoices(default: current)): "]
        case .quantity(let current):
            return ["Quantity [\(current)]: "]
        case .backOrder(let current):
            return ["On back order? \(yesNoChoices(default: current)): "]
        case .review(let entry):
            return review(for: entry)
        }
    }

    /// The review: a blank line, the draft as `draft show` presents it, then the choices.
    public static func review(for entry: IdentifiedDraft) -> [String] {
        [""] + Presentation.details(for: entry) + [reviewChoices]
    }

    /// What is shown when `step` is asked again: the reason, then only the prompt line (a
    /// review is not printed twice).
    public static func reprompt(for step: WizardStep, because reason: WizardReask) -> [String] {
        ["  " + reason.description] + prompt(for: step).suffix(1)
    }

    /// The review's prompt.
    public static let reviewChoices = "[s]ave / [e]dit / [c]ancel / [q]uit and keep the draft: "

    /// `[Y/n]` or `[y/N]`: the default, taken on Enter, in capitals.
    public static func yesNoChoices(default defaultAnswer: Bool) -> String {
        defaultAnswer ? "[Y/n]" : "[y/N]"
    }

    /// One line saying why an answer was not taken and what to type.
    public static func reason(for reask: WizardReask) -> String {
        switch reask {
        case .invalidName(let reason):
            "\(reason); type a name (or \(WizardInput.backToken) to go back)"
        case .unknownColor:
            "not a colour: type one of \(Color.allCases.map(\.rawValue).joined(separator: ", ")), or none, or Enter to keep the one shown"
        case .invalidLocation(let reason):
            "\(reason); type a location, none, or Enter to keep the one shown"
        case .notYesOrNo(let defaultAnswer):
            "answer y or n (Enter for \(defaultAnswer ? "yes" : "no"))"
        case .invalidQuantity:
            "the quantity must be a whole number of at least \(Status.minimumQuantity); for none, go back (\(WizardInput.backToken)) and answer no to \"In stock?\""
        case .unknownReviewChoice:
            "type s to save, e to edit, c to cancel the draft, or q to quit and keep it"
        case .cannotSave(let reason):
            "cannot save: \(reason); type e to edit the draft"
        }
    }

    /// The line shown once at the start.
    public static let help = "Enter keeps the value in brackets; \(WizardInput.backToken) goes back a step; Ctrl-C or Ctrl-D stops and keeps the draft."
}
