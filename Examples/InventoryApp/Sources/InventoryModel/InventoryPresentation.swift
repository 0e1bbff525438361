import Inventory

/// How the inventory screen shows its state: pure functions of the model's values, tested
/// without a screen (seed 003's "testable views").
public enum InventoryPresentation {
    /// One row of the list.
    public struct Row: Equatable, Sendable {
        /// The item's name.
        public var title: String
        /// "In stock: 20", "Out of stock: on back order".
        public var subtitle: String
        /// The colour's name for a swatch, with its text alternative; nil without a colour.
        public var swatch: Color?
        /// Out of stock: shown greyed out.
        public var isMuted: Bool

        /// A row as given.
        public init(title: String, subtitle: String, swatch: Color?, isMuted: Bool) {
            self.title = title
            self.subtitle = subtitle
            self.swatch = swatch
            self.isMuted = isMuted
        }
    }

    /// The row for `item`.
    public static func row(for item: Item) -> Row {
        Row(title: Presentation.displayName(item.name), subtitle: Presentation.text(for: item.status),
            swatch: item.color, isMuted: !item.status.isInStock)
    }

    /// The title over an open draft: adding, duplicating and resolving a conflict read
    /// differently; a conflict's says why ("Resolve a conflict: oversold, 1 missing").
    public static func title(for draft: Draft) -> String {
        switch draft {
        case .adding: "Add new item"
        case .duplicating: "Duplicate item"
        case .resolving(_, let conflict): "Resolve a conflict: \(Presentation.summary(of: conflict))"
        }
    }
}
