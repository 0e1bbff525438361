import Inventory
import TextFormats

/// An answer the wizard understood, already checked against the domain's rules.
public enum WizardAnswer: Hashable, Sendable {
    /// `<`: go back one step.
    case back
    /// The name to keep (never blank by the domain's rule).
    case name(String)
    /// The colour to keep; nil means none.
    case color(Color?)
    /// The location to keep; nil means none.
    case location(ItemLocation?)
    /// A yes or no, for the in-stock and back-order questions.
    case yesNo(Bool)
    /// An in-stock quantity, at least `Status/minimumQuantity`.
    case quantity(Int)
    /// What to do with the reviewed draft.
    case review(ReviewChoice)
}

/// The choices offered at the review.
public enum ReviewChoice: String, Hashable, Sendable, CaseIterable {
    /// Turn the draft into an item.
    case save
    /// Go through the questions again, every answer kept as the default.
    case edit
    /// Delete the draft; nothing is added.
    case cancel
    /// Stop and keep the draft for later.
    case quit
}

/// Why an answer was not taken; the same step is asked again with this reason.
public enum WizardReask: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name is blank, or otherwise refused by the domain; `reason` is the domain's own line.
    case invalidName(reason: String)
    /// Not one of the known colours, nor `none`.
    case unknownColor
    /// The location breaks its rule; `reason` is the domain's own line.
    case invalidLocation(reason: String)
    /// Not y, yes, n or no.
    case notYesOrNo(defaultAnswer: Bool)
    /// Not a whole number, or below the minimum.
    case invalidQuantity
    /// Not one of the review's choices.
    case unknownReviewChoice
    /// Save was chosen but the draft breaks a rule of items (its name was blanked elsewhere);
    /// `reason` is the domain's own line.
    case cannotSave(reason: String)

    /// One line saying what to type instead.
    public var description: String { WizardPresentation.reason(for: self) }
}

/// Reads a line typed at a step into an answer: pure functions, no terminal.
///
/// Each step's default is what Enter gives, so a resumed draft walks through with Enter.
public enum WizardInput {
    /// The line that goes back one step.
    public static let backToken = "<"

    /// Parses `line` (without its line break) as an answer to `step`.
    public static func parse(_ line: String, at step: WizardStep) -> Result<WizardAnswer, WizardReask> {
        // Without leading and trailing white space (spaces, tabs, a stray carriage return).
        let text = String(line.trimmed { $0.isWhitespace })
        if text == backToken { return .success(.back) }
        switch step {
        case .name(let current): return name(text, current: current).map(WizardAnswer.name)
        case .color(let current): return color(text, current: current).map(WizardAnswer.color)
        case .location(let current): return location(text, current: current).map(WizardAnswer.location)
        case .inStock(let current), .backOrder(let current): return yesNo(text, default: current).map(WizardAnswer.yesNo)
        case .quantity(let current): return quantity(text, current: current).map(WizardAnswer.quantity)
        case .review: return reviewChoice(text).map(WizardAnswer.review)
        }
    }

    /// A name: Enter keeps `current`; anything the domain calls blank or invalid is refused
    /// with the domain's own reason (the rule lives in `Item/validate()`, not here).
    public static func name(_ text: String, current: String) -> Result<String, WizardReask> {
        let candidate = text.isEmpty ? current : text
        do {
            try Item(name: candidate).validate()
            return .success(candidate)
        } catch {
            return .failure(.invalidName(reason: String(describing: error)))
        }
    }

    /// A colour in any letter case; Enter keeps `current`; `none` clears it.
    public static func color(_ text: String, current: Color?) -> Result<Color?, WizardReask> {
        if text.isEmpty { return .success(current) }
        let lowered = text.lowercased()
        if lowered == "none" { return .success(nil) }
        guard let color = Color(rawValue: lowered) else { return .failure(.unknownColor) }
        return .success(color)
    }

    /// A location: Enter keeps `current` (none for a new draft: the step is skipped); `none`
    /// in any letter case clears it; anything else by `ItemLocation`'s rule.
    public static func location(_ text: String, current: ItemLocation?) -> Result<ItemLocation?, WizardReask> {
        if text.isEmpty { return .success(current) }
        if text.lowercased() == "none" { return .success(nil) }
        do {
            return .success(try ItemLocation.parse(text))
        } catch {
            return .failure(.invalidLocation(reason: error.description))
        }
    }

    /// y, yes, n or no in any letter case; Enter gives `defaultAnswer`.
    public static func yesNo(_ text: String, default defaultAnswer: Bool) -> Result<Bool, WizardReask> {
        switch text.lowercased() {
        case "": .success(defaultAnswer)
        case "y", "yes": .success(true)
        case "n", "no": .success(false)
        default: .failure(.notYesOrNo(defaultAnswer: defaultAnswer))
        }
    }

    /// A whole number that the domain accepts as an in-stock quantity; Enter keeps `current`.
    public static func quantity(_ text: String, current: Int) -> Result<Int, WizardReask> {
        if text.isEmpty { return .success(current) }
        guard let quantity = Int(text),
              (try? Status.inStock(quantity: quantity).validate()) != nil else {
            return .failure(.invalidQuantity)
        }
        return .success(quantity)
    }

    /// s, e, c, q or the whole word, in any letter case. There is no default: saving is
    /// only ever explicit.
    public static func reviewChoice(_ text: String) -> Result<ReviewChoice, WizardReask> {
        let lowered = text.lowercased()
        for choice in ReviewChoice.allCases where lowered == choice.rawValue || lowered == String(choice.rawValue.prefix(1)) {
            return .success(choice)
        }
        return .failure(.unknownReviewChoice)
    }
}
