import Inventory

/// The guided entry of a draft, as a state machine: the draft as answered so far and the step
/// being asked. Pure: no terminal, no database. A front shows ``step`` with
/// ``WizardPresentation``, reads a line, and calls ``answering(_:)``.
///
/// The order of the questions and the branch live in one function, ``path(for:)``; both moving
/// on and going back (`<`) walk it, so no step names another. To add a step: a ``WizardStep``
/// case, its parsing in ``WizardInput``, the edit it stores in ``transition(_:)``, its wording
/// in ``WizardPresentation``, and its place in the path.
public struct DraftWizard: Hashable, Sendable {
    /// The draft with every answer given so far applied.
    public private(set) var entry: IdentifiedDraft
    /// The question being asked.
    public private(set) var step: WizardStep
    /// The quantity offered when the answer to "in stock?" is yes: the last one given, so
    /// going no and then back to yes does not forget it.
    private var quantityDefault: Int
    /// The back-order answer offered when the answer to "in stock?" is no.
    private var backOrderDefault: Bool

    /// Starts at the first question, every default taken from `entry`'s stored values (a new
    /// draft, a draft being resumed, or a duplicate of an item).
    public init(entry: IdentifiedDraft) {
        self.entry = entry
        switch entry.draft.item.status {
        case .inStock(let quantity): (quantityDefault, backOrderDefault) = (quantity, false)
        case .outOfStock(let isOnBackOrder): (quantityDefault, backOrderDefault) = (Status.minimumQuantity, isOnBackOrder)
        }
        step = .review(entry)  // replaced at once: the path, not this initializer, says what comes first
        step = makeStep(DraftWizard.path(for: entry.draft.item)[0])
    }

    /// Resumes at the question of `kind`, for a front that keeps no wizard between two
    /// requests (a web page names the step it shows): the draft's stored values are the
    /// defaults, as in ``init(entry:)``. A step not on the draft's path (the quantity of an
    /// item out of stock, say) starts at the first question instead.
    ///
    /// `memory` is ``memory`` of the wizard that asked the previous question, carried by the
    /// front between requests: without it, answering no and then yes to "in stock?" across
    /// two requests would forget the quantity the terminal's wizard remembers. Only the
    /// branch the stored draft is not on is taken from it (the stored values win for the
    /// other), and a quantity the domain would refuse is ignored.
    public init(entry: IdentifiedDraft, at kind: WizardStep.Kind, remembering memory: Memory? = nil) {
        self.init(entry: entry)
        if let memory {
            switch entry.draft.item.status {
            case .inStock:
                backOrderDefault = memory.isOnBackOrder
            case .outOfStock:
                if memory.quantity >= Status.minimumQuantity { quantityDefault = memory.quantity }
            }
        }
        if DraftWizard.path(for: entry.draft.item).contains(kind) { step = makeStep(kind) }
    }

    /// What the wizard remembers beyond the draft: the answer last given on each branch of
    /// "in stock?", offered again when the user comes back to that branch.
    public struct Memory: Hashable, Sendable {
        /// The quantity offered when the answer to "in stock?" becomes yes.
        public var quantity: Int
        /// The back-order answer offered when the answer to "in stock?" becomes no.
        public var isOnBackOrder: Bool

        /// A memory holding these answers.
        public init(quantity: Int, isOnBackOrder: Bool) {
            self.quantity = quantity
            self.isOnBackOrder = isOnBackOrder
        }
    }

    /// The answers remembered for the branches of "in stock?", for a front that keeps no
    /// wizard between requests to hand to ``init(entry:at:remembering:)``.
    public var memory: Memory { Memory(quantity: quantityDefault, isOnBackOrder: backOrderDefault) }

    /// The questions asked for an item with these answers, in order: the one place that
    /// decides what follows what, and where the in-stock branch is.
    public static func path(for item: Item) -> [WizardStep.Kind] {
        // Exhaustive over `Status`, so a new case is a compile error here until it has its question.
        let stock: [WizardStep.Kind] = switch item.status {
        case .inStock: [.quantity]
        case .outOfStock: [.backOrder]
        }
        return [.name, .color, .location, .inStock] + stock + [.review]
    }

    /// What happens after an answer.
    public enum Transition: Equatable, Sendable {
        /// Ask `wizard.step` next. `edit`, when not nil, is the answer to store now so that
        /// nothing typed is lost; it is nil when the answer changed nothing (or went back).
        case next(DraftWizard, storing: ItemEdit?)
        /// The answer was not taken: ask the same step again, saying why.
        case reask(WizardReask)
        /// The wizard is over.
        case finished(Outcome)
    }

    /// How the wizard ends.
    public enum Outcome: Hashable, Sendable {
        /// Turn the draft into an item.
        case save
        /// Delete the draft.
        case cancel
        /// Stop, keeping the draft to resume later.
        case quit
    }

    /// Parses `line` as the answer to the current step and moves on.
    public func answering(_ line: String) -> Transition {
        switch WizardInput.parse(line, at: step) {
        case .success(let answer): transition(answer)
        case .failure(let reason): .reask(reason)
        }
    }

    /// The pure transition: the current step and an understood answer give the next step,
    /// with the edit to store, or the outcome.
    public func transition(_ answer: WizardAnswer) -> Transition {
        if answer == .back { return .next(moving(to: previousKind()), storing: nil) }
        var next = self
        var edit = ItemEdit()
        switch (step, answer) {
        case (.name, .name(let name)):
            edit.name = name
        case (.color, .color(let color)):
            edit.color = color.map(ItemEdit.ColorChange.set) ?? .remove
        case (.location, .location(let location)):
            edit.location = location.map(ItemEdit.LocationChange.set) ?? .remove
        case (.inStock, .yesNo(let inStock)):
            edit.status = inStock ? .inStock(quantity: quantityDefault) : .outOfStock(isOnBackOrder: backOrderDefault)
        case (.quantity, .quantity(let quantity)):
            edit.status = .inStock(quantity: quantity)
            next.quantityDefault = quantity
        case (.backOrder, .yesNo(let isOnBackOrder)):
            edit.status = .outOfStock(isOnBackOrder: isOnBackOrder)
            next.backOrderDefault = isOnBackOrder
        case (.review, .review(let choice)):
            switch choice {
            case .save:
                // The draft may have been changed elsewhere since its name was asked.
                do { _ = try entry.draft.itemToSave() } catch { return .reask(.cannotSave(reason: String(describing: error))) }
                return .finished(.save)
            case .cancel: return .finished(.cancel)
            case .quit: return .finished(.quit)
            case .edit: return .next(moving(to: DraftWizard.path(for: entry.draft.item)[0]), storing: nil)
            }
        default:
            // An answer parsed for another step (a front's mistake, never the user's): the
            // wizard stays where it is rather than crash.
            return .next(self, storing: nil)
        }
        let before = entry.draft.item
        // The answers were checked by WizardInput against the domain's rules, so applying
        // them cannot fail; should it ever, the step is asked again rather than crashing.
        guard let applied = try? entry.draft.applying(edit) else { return .reask(.invalidQuantity) }
        next.entry.draft = applied
        let kinds = DraftWizard.path(for: applied.item)
        let index = kinds.firstIndex(of: step.kind).map { $0 + 1 } ?? 0
        next = next.moving(to: kinds[min(index, kinds.count - 1)])
        return .next(next, storing: applied.item == before ? nil : edit)
    }

    /// Takes `stored` (the same draft as read back from where it is kept) as the truth:
    /// another front or process may have changed it while a question waited. The current
    /// question is asked again with the stored value as its default; when the stored status
    /// takes the other branch, the wizard goes back to the first question of the path.
    public mutating func refresh(from stored: IdentifiedDraft) {
        guard stored.id == entry.id, stored != entry else { return }
        entry = stored
        let kinds = DraftWizard.path(for: stored.draft.item)
        step = makeStep(kinds.contains(step.kind) ? step.kind : kinds[0])
    }

    /// The step before this one on the current path; the first step stays where it is.
    private func previousKind() -> WizardStep.Kind {
        let kinds = DraftWizard.path(for: entry.draft.item)
        guard let index = kinds.firstIndex(of: step.kind), index > 0 else { return kinds[0] }
        return kinds[index - 1]
    }

    private func moving(to kind: WizardStep.Kind) -> DraftWizard {
        var moved = self
        moved.step = makeStep(kind)
        return moved
    }

    /// The step of `kind`, carrying the draft's current answer as its default.
    private func makeStep(_ kind: WizardStep.Kind) -> WizardStep {
        let item = entry.draft.item
        switch kind {
        case .name: return .name(current: item.name)
        case .color: return .color(current: item.color)
        case .location: return .location(current: item.location)
        case .inStock: return .inStock(current: item.status.isInStock)
        case .quantity:
            if case .inStock(let quantity) = item.status { return .quantity(current: quantity) }
            return .quantity(current: quantityDefault)
        case .backOrder:
            if case .outOfStock(let isOnBackOrder) = item.status { return .backOrder(current: isOnBackOrder) }
            return .backOrder(current: backOrderDefault)
        case .review: return .review(entry)
        }
    }
}
