import FoundationEssentials
import Glibc
import Inventory
import StockroomMigrations

/// Which items to list, and which page of them. Results are ordered by name, then id.
public struct ItemQuery: Sendable, Equatable {
    /// A filter on the status case.
    public enum StatusFilter: Sendable, Equatable, CaseIterable {
        /// Only `inStock`.
        case inStock
        /// Only `outOfStock`, on back order or not.
        case outOfStock
        /// Only `outOfStock(isOnBackOrder: true)`.
        case onBackOrder

        /// How every front spells the filter (`--status in-stock`, `?status=in-stock`); a new
        /// filter is a compile error here.
        public var text: String {
            switch self {
            case .inStock: "in-stock"
            case .outOfStock: "out-of-stock"
            case .onBackOrder: "on-back-order"
            }
        }

        /// The filter spelled `text`, or nil.
        public init?(text: String) {
            guard let found = Self.allCases.first(where: { $0.text == text }) else { return nil }
            self = found
        }
    }

    /// Keep only items with this status case.
    public var status: StatusFilter?
    /// Keep only items with this colour.
    public var color: Color?
    /// Keep only items kept here: the whole location, ignoring letter case as ``nameContains``
    /// does (the engine's case-insensitive LIKE, without wildcards).
    public var location: ItemLocation?
    /// Keep only items whose name contains this text, ignoring ASCII letter case.
    public var nameContains: String?
    /// Keep only items whose name starts with this text (exact letter case; uses the index).
    public var namePrefix: String?
    /// At most this many items.
    public var limit: Int?
    /// Skip this many items first.
    public var offset: Int
    /// Only items after this one in the list's order (name, then id): keyset paging, which
    /// neither skips nor repeats an item when others are added or deleted between two pages,
    /// and costs the same on the last page as on the first (the `items_by_name` index).
    public var after: Position?

    /// An item's place in the list's order: what a page's last item leaves for the next page.
    public struct Position: Sendable, Equatable {
        /// The item's name.
        public var name: String
        /// The item's id, which orders items of the same name.
        public var id: UUID

        /// The place of an item with `name` and `id`.
        public init(name: String, id: UUID) {
            self.name = name
            self.id = id
        }
    }

    /// Creates a query; with no arguments it matches every item.
    public init(status: StatusFilter? = nil, color: Color? = nil, nameContains: String? = nil,
                namePrefix: String? = nil, limit: Int? = nil, offset: Int = 0, after: Position? = nil,
                location: ItemLocation? = nil) {
        self.status = status
        self.location = location
        self.color = color
        self.nameContains = nameContains
        self.namePrefix = namePrefix
        self.limit = limit
        self.offset = offset
        self.after = after
    }

    /// The SQL condition and its arguments, in parameter order.
    func whereClause<Statement: StoreStatement>(_ dialect: DatabaseEngine) -> (sql: String, bind: (Statement) throws -> Int) {
        let (conditions, bind): ([String], (Statement, Int) throws -> Int) = self.conditions(dialect)
        let sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (sql, { statement in try bind(statement, 0) })
    }

    /// The SQL conditions (to be joined by AND) and a function binding their arguments from a
    /// parameter index on, which returns the next free index.
    func conditions<Statement: StoreStatement>(_ dialect: DatabaseEngine) -> (sql: [String], bind: (Statement, Int) throws -> Int) {
        var conditions: [String] = []
        // The tag is written into the SQL as a literal (it comes from the codec, never from the
        // user) so the planner sees the value and picks items_by_status_name.
        let (tagColumn, _, backOrderColumn) = ItemQuery.statusColumns
        switch status {
        case .inStock: conditions.append("\(tagColumn) = \(StatusCodec.literal(.inStock))")
        case .outOfStock: conditions.append("\(tagColumn) = \(StatusCodec.literal(.outOfStock))")
        case .onBackOrder: conditions.append("\(tagColumn) = \(StatusCodec.literal(.outOfStock)) AND \(backOrderColumn) = 1")
        case nil: break
        }
        if color != nil { conditions.append("color = ?") }
        if location != nil { conditions.append("\(ItemField.location.column) \(dialect.caseInsensitiveLike) ? ESCAPE '\\'") }
        if nameContains != nil { conditions.append(ItemQuery.containsCondition(dialect)) }
        // A half-open range on the index instead of LIKE, which cannot use a BINARY index.
        if namePrefix != nil { conditions.append("name >= ? AND name < ? || \(dialect.greatestCharacter)") }
        if after != nil { conditions.append("(name > ? OR (name = ? AND id > ?))") }
        let query = self
        return (conditions, { statement, first in
            var index = first
            if let color = query.color { try statement.bindStatic(ColorCodec.text(for: color), at: index); index += 1 }
            if let location = query.location { try statement.bind(ItemQuery.escapeLike(location.text), at: index); index += 1 }
            if let text = query.nameContains { try statement.bind(ItemQuery.containsPattern(text), at: index); index += 1 }
            if let prefix = query.namePrefix {
                try statement.bind(prefix, at: index)
                try statement.bind(prefix, at: index + 1)
                index += 2
            }
            if let after = query.after {
                try statement.bind(after.name, at: index)
                try statement.bind(after.name, at: index + 1)
                try statement.bind(after.id, at: index + 2)
                index += 3
            }
            return index
        })
    }

    /// The rule of ``nameContains``, in SQL: one parameter, bound to ``containsPattern(_:)``.
    /// Every search plan applies exactly this condition, whatever index found the rows.
    static func containsCondition(_ dialect: DatabaseEngine) -> String {
        "name \(dialect.caseInsensitiveLike) ? ESCAPE '\\'"
    }

    /// The LIKE pattern matching names that contain `text`.
    static func containsPattern(_ text: String) -> String {
        "%" + escapeLike(text) + "%"
    }

    /// The status columns of `items`, from the codec.
    static let statusColumns: (tag: String, quantity: String, backOrder: String) = {
        let columns = StatusCodec.columns()
        return (columns[0], columns[1], columns[2])
    }()

    /// `text` with LIKE's wildcards and escape character escaped. By Unicode scalar, as the
    /// engines read a pattern: a `%` followed by a combining mark is one Swift `Character`
    /// that is not "%", yet still a wildcard to the engine.
    static func escapeLike(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }
}
