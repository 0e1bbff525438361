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

    /// How the location changes.
    public enum LocationChange: Sendable, Equatable {
        /// Set this location.
        case set(ItemLocation)
        /// Remove the location.
        case remove
    }

    /// The new name, if it changes.
    public var name: String?
    /// The colour change, if any.
    public var color: ColorChange?
    /// The new status, if it changes.
    public var status: Status?
    /// The location change, if any.
    public var location: LocationChange?

    /// Creates an edit.
    public init(name: String? = nil, color: ColorChange? = nil, status: Status? = nil, location: LocationChange? = nil) {
        self.name = name
        self.color = color
        self.status = status
        self.location = location
    }

    /// True when the edit changes nothing.
    public var isEmpty: Bool { name == nil && color == nil && status == nil && location == nil }

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
        switch location {
        case .set(let newLocation):
            if let problem = ItemLocation.problem(in: newLocation.text) { throw problem }
            edited.location = newLocation
        case .remove: edited.location = nil
        case nil: break
        }
        return edited
    }
}
