import FoundationEssentials
import Glibc

/// An item being entered, not yet part of the inventory. A draft is edited, then either saved
/// (it becomes an item) or cancelled (it is gone). A ``resolving(_:conflict:)`` draft is a
/// conflict waiting for a person: saving it takes the item as edited, cancelling it keeps the
/// hub's.
public enum Draft: Hashable, Sendable {
    /// A new item entered from scratch.
    case adding(Item)
    /// A copy of an existing item under a new id; `sourceItemID` is the item it was copied from.
    /// The source may be deleted meanwhile: the duplicate still saves.
    case duplicating(Item, sourceItemID: UUID)
    /// A conflict a person resolves (docs/replicas.md): the item holds their choice, starting
    /// as what the replica wanted (``OpenConflict/startingItem``), under the conflict's item
    /// id. The draft's id is the conflict's (``Conflict/id``). Only a hub's merge opens one;
    /// the wizard never does.
    case resolving(Item, conflict: OpenConflict)

    /// A fresh draft: empty name, no colour, in stock with quantity 1.
    public static func newItem(id: UUID = UUID.version7()) -> Draft {
        .adding(Item(id: id, name: "", color: nil, status: Item.defaultStatus))
    }

    /// A duplicate of `source`: every field the same (``ItemField``), under a new id.
    public static func duplicate(of source: Item, newID: UUID = UUID.version7()) -> Draft {
        .duplicating(Item.assembling(id: newID, name: source.name, color: source.color, status: source.status) { $0.text(in: source) },
                     sourceItemID: source.id)
    }

    /// The draft that brings `conflict` to a person: its item starts as what the replica wanted
    /// (the hub's item when it wanted a delete). Store it under the conflict's id.
    public static func resolution(of conflict: Conflict) -> Draft {
        let open = OpenConflict(conflict)
        return .resolving(open.startingItem, conflict: open)
    }

    /// A case of `Draft` without its values. Its raw value is the case's Swift name, which JSON
    /// and tables show (how the database spells it is the store's codec's business).
    public enum Case: String, CaseIterable, Sendable {
        /// ``Draft/adding(_:)``: a new item from scratch.
        case adding
        /// ``Draft/duplicating(_:sourceItemID:)``: a new item copied from an existing one.
        case duplicating
        /// ``Draft/resolving(_:conflict:)``: a conflict for a person to resolve.
        case resolving
    }

    /// Which case this draft is.
    public var `case`: Case {
        switch self {
        case .adding: .adding
        case .duplicating: .duplicating
        case .resolving: .resolving
        }
    }

    /// The item the draft holds, whichever case it is.
    public var item: Item {
        get {
            switch self {
            case .adding(let item), .duplicating(let item, _), .resolving(let item, _): item
            }
        }
        set {
            switch self {
            case .adding: self = .adding(newValue)
            case .duplicating(_, let source): self = .duplicating(newValue, sourceItemID: source)
            case .resolving(_, let conflict): self = .resolving(newValue, conflict: conflict)
            }
        }
    }

    /// The item a duplicate was copied from; nil for `adding` and `resolving`.
    public var sourceItemID: UUID? {
        if case .duplicating(_, let source) = self { return source }
        return nil
    }

    /// The conflict a `resolving` draft resolves; nil for the other cases.
    public var openConflict: OpenConflict? {
        if case .resolving(_, let conflict) = self { return conflict }
        return nil
    }

    /// The draft with `edit` applied. The name may be left empty while editing.
    public func applying(_ edit: ItemEdit) throws -> Draft {
        var draft = self
        draft.item = try edit.applied(to: item)
        return draft
    }

    /// The item this draft becomes when saved.
    ///
    /// - Throws: ``InventoryError/blankName`` while the name is empty or blank.
    public func itemToSave() throws -> Item {
        try item.validate()
        return item
    }
}

/// A draft together with its own id, as kept while several drafts are open at once.
public struct IdentifiedDraft: Identifiable, Hashable, Sendable {
    /// The draft's id (not the id of the item it will become).
    public let id: UUID
    /// The draft.
    public var draft: Draft

    /// Pairs a draft with its id.
    public init(id: UUID = UUID.version7(), draft: Draft) {
        self.id = id
        self.draft = draft
    }

    /// The conflict a `resolving` draft resolves, under the draft's id (which is the
    /// conflict's), as the rules judge its resolution; nil for the other cases.
    public var conflict: Conflict? {
        draft.openConflict?.conflict(id: id)
    }
}
