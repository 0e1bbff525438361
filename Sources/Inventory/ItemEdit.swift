/// A change to some of an item's fields; fields left nil stay as they are.
///
/// The same edit serves updating an item in the inventory and editing a draft.
public struct ItemEdit: Sendable, Equatable {
    /// How the colour changes.
    public enum ColorChange: Sendable, Equatable {
        /// Set this colour.
        case set(Color)
        /// Remove the colour.
        case remove
    }

    /// How an optional text (``OptionalTextField``) changes.
    public enum TextChange: Sendable, Equatable {
        /// Set this text (trimmed and by the field's rule, as ``OptionalTextField/parse(_:)`` returns it).
        case set(String)
        /// Remove the text.
        case remove
    }

    /// The new name, if it changes.
    public var name: String?
    /// The colour change, if any.
    public var color: ColorChange?
    /// The new status, if it changes.
    public var status: Status?
    /// The changes of the optional texts, by field; a field left out stays as it is.
    public var texts: [OptionalTextField: TextChange]

    /// Creates an edit.
    public init(name: String? = nil, color: ColorChange? = nil, status: Status? = nil,
                texts: [OptionalTextField: TextChange] = [:]) {
        self.name = name
        self.color = color
        self.status = status
        self.texts = texts
    }

    /// True when the edit changes nothing.
    public var isEmpty: Bool { name == nil && color == nil && status == nil && texts.isEmpty }

    /// The item with this edit applied. Validates the new status and refuses a name with a
    /// control character; a blank name is refused where it matters (an item in the inventory,
    /// a draft being saved).
    public func applied(to item: Item) throws -> Item {
        var edited = item
        if let name {
            try ItemName.validate(name)
            edited.name = name
        }
        switch color {
        case .set(let newColor): edited.color = newColor
        case .remove: edited.color = nil
        case nil: break
        }
        if let status {
            try status.validate()
            edited.status = status
        }
        for (field, change) in texts {
            switch change {
            case .set(let text):
                if let problem = field.problem(in: text) { throw problem }
                field.set(text, in: &edited)
            case .remove: field.set(nil, in: &edited)
            }
        }
        return edited
    }
}
