import FoundationEssentials
import Glibc

/// An item of the inventory.
public struct Item: Identifiable, Hashable, Sendable {
    // Only stored properties here, and the initialiser in the extension below, so that it can
    // hand its values to the memberwise initialiser. An initialiser that assigned `var`
    // properties one by one compiled to a copy and a destroy of the whole item (through its
    // value witnesses, once it held two strings), on every item read: BENCHMARKS.md, W2.

    /// The id, as two words (see ``PackedUUID``); ``id`` reads it as a `UUID`.
    @usableFromInline
    let storedID: PackedUUID
    /// What the item is called; never blank once it is in the inventory.
    public var name: String
    /// The item's colour, or nil when it has none.
    public var color: Color?
    /// Whether, and how many, are in stock.
    public var status: Status
    /// Where the item is kept, or nil when that is not recorded.
    public var location: ItemLocation?
}

extension Item {
    /// The item's identity, stable for its whole life.
    @inlinable
    public var id: UUID { storedID.uuid }

    /// The status of an item added without one (`items add` without `--quantity` or
    /// `--out-of-stock`, `POST /api/items` without `status`, a new draft): in stock, 1.
    public static let defaultStatus = Status.inStock(quantity: 1)

    /// Creates an item. Use ``validate()`` (or a repository, which does) before storing it.
    public init(id: UUID = UUID.version7(), name: String, color: Color? = nil, status: Status = Item.defaultStatus,
                location: ItemLocation? = nil) {
        self.init(storedID: PackedUUID(id), name: name, color: color, status: status, location: location)
    }

    /// Checks the rules of an item in the inventory: a name that is not blank, a valid status,
    /// each optional text by its rule.
    ///
    /// - Throws: ``InventoryError/controlCharacterInName(_:position:)``, ``InventoryError/blankName``
    ///   or ``InventoryError/invalidQuantity(_:)``.
    public func validate() throws {
        try ItemName.validate(name)
        if Item.isBlank(name) { throw InventoryError.blankName }
        try status.validate()
        for field in OptionalTextField.allCases {
            if let text = field.text(in: self), let problem = field.problem(in: text) { throw problem }
        }
    }

    /// True when `name` shows nothing (``ItemName/isBlank(_:)``).
    public static func isBlank(_ name: String) -> Bool {
        ItemName.isBlank(name)
    }
}

/// A `UUID` held as two words. To the compiler Foundation's `UUID` is a tuple of 16 bytes, and
/// an item holding one moved it byte by byte on every copy: about 85 instructions an item read
/// (BENCHMARKS.md, W2). Equal exactly when the UUIDs are.
@usableFromInline
struct PackedUUID: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    @usableFromInline
    let words: (UInt64, UInt64)

    // Bit casts both ways: a `UUID` is its 16 bytes (`unsafeBitCast` traps if the sizes ever
    // differ, and ItemFieldDeclarationTests round-trips ids), and `UUID(uuid:)` is a call of its own.
    @inlinable
    init(_ uuid: UUID) { words = unsafeBitCast(uuid, to: (UInt64, UInt64).self) }

    @inlinable
    var uuid: UUID { unsafeBitCast(words, to: UUID.self) }

    @inlinable
    static func == (lhs: PackedUUID, rhs: PackedUUID) -> Bool { lhs.words == rhs.words }

    /// The UUID's text, so that `print(item)` and a failed test show the id, not two words.
    @usableFromInline
    var description: String { uuid.uuidString }

    @usableFromInline
    var debugDescription: String { uuid.uuidString }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }
}
