import Inventory

/// One question of the draft wizard, carrying what it needs to be asked: the value offered as
/// the default (the draft's stored answer), or the draft to review.
///
/// A step knows nothing of which step comes after it; ``DraftWizard`` decides that.
public enum WizardStep: Hashable, Sendable {
    /// The item's name; `current` is the stored name (may be empty for a new draft).
    case name(current: String)
    /// The item's colour; `current` is kept on Enter (nil: none).
    case color(current: Color?)
    /// Where the item is kept, optional; `current` is kept on Enter (nil: none, so Enter skips).
    case location(current: ItemLocation?)
    /// Whether any are in stock; `current` is the default taken on Enter.
    case inStock(current: Bool)
    /// How many are in stock; `current` is kept on Enter.
    case quantity(current: Int)
    /// Whether more are on order while none are in stock; `current` is the default on Enter.
    case backOrder(current: Bool)
    /// The whole draft, shown before choosing to save, edit, cancel or quit.
    case review(IdentifiedDraft)

    /// The step without its values: what the flow orders and branches on.
    public enum Kind: Hashable, Sendable, CaseIterable {
        /// ``WizardStep/name(current:)``.
        case name
        /// ``WizardStep/color(current:)``.
        case color
        /// ``WizardStep/location(current:)``.
        case location
        /// ``WizardStep/inStock(current:)``.
        case inStock
        /// ``WizardStep/quantity(current:)``.
        case quantity
        /// ``WizardStep/backOrder(current:)``.
        case backOrder
        /// ``WizardStep/review(_:)``.
        case review
    }

    /// Which question this is.
    public var kind: Kind {
        switch self {
        case .name: .name
        case .color: .color
        case .location: .location
        case .inStock: .inStock
        case .quantity: .quantity
        case .backOrder: .backOrder
        case .review: .review
        }
    }
}
