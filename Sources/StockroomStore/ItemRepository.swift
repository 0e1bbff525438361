import Foundation
import Inventory
import SQLiteCore

/// Reads and writes the `items` table.
///
/// Every method that writes runs in one transaction of its own, or inside the caller's
/// transaction when one is open. Items are validated before they are written, so a domain
/// rule fails with an ``InventoryError`` before SQLite's CHECK constraints are ever reached.
public struct ItemRepository {
    let database: Database

    static let columns = "id, name, color, status, quantity, is_on_back_order"
    static let insertSQL = """
        INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
        """

    /// Adds one item.
    ///
    /// - Throws: ``InventoryError`` for a blank name or invalid quantity; ``SQLiteError`` (a
    ///   constraint) when the id already exists.
    public func insert(_ item: Item) throws {
        try item.validate()
        let now = Timestamp.now()
        try database.inTransaction {
            try database.withStatement(ItemRepository.insertSQL) { statement in
                try ItemColumns.bind(item, to: statement, at: 0)
                try statement.bind(now, at: 6)
                try statement.run()
            }
        }
    }

    /// Adds many items in one transaction: all of them or, on the first error, none.
    public func insert<Items: Sequence>(contentsOf items: Items) throws where Items.Element == Item {
        let now = Timestamp.now()
        try database.inTransaction {
            let statement = try database.cachedStatement(ItemRepository.insertSQL)
            defer { statement.reset() }
            for item in items {
                try item.validate()
                try ItemColumns.bind(item, to: statement, at: 0)
                try statement.bind(now, at: 6)
                try statement.run()
                statement.reset()
            }
        }
    }

    /// The item with `id`.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)`` or ``StoreError/undecodableRow(table:id:reason:)``.
    public func item(id: UUID) throws -> Item {
        let found = try database.withStatement("SELECT \(ItemRepository.columns) FROM items WHERE id = ?") { statement in
            try statement.bind(id, at: 0)
            return try statement.step() ? try ItemRepository.decode(statement) : nil
        }
        guard let found else { throw StoreError.notFound(.item, id.lowercasedString) }
        return found
    }

    /// The items matching `query`, ordered by name then id.
    public func items(matching query: ItemQuery = ItemQuery()) throws -> [Item] {
        var items: [Item] = []
        if let limit = query.limit { items.reserveCapacity(min(limit, 10_000)) }
        try forEachItem(matching: query) { items.append($0) }
        return items
    }

    /// Calls `body` with each item matching `query` as it is read, without holding all of them.
    public func forEachItem(matching query: ItemQuery = ItemQuery(), _ body: (Item) throws -> Void) throws {
        let (condition, bindConditions) = query.whereClause()
        let sql = "SELECT \(ItemRepository.columns) FROM items\(condition) ORDER BY name, id LIMIT ? OFFSET ?"
        try database.withStatement(sql) { statement in
            let next = try bindConditions(statement)
            try statement.bind(query.limit ?? -1, at: next)
            try statement.bind(query.offset, at: next + 1)
            while try statement.step() {
                try body(try ItemRepository.decode(statement))
            }
        }
    }

    /// Calls `body` with every item in storage order, unsorted: the cheapest way to read them
    /// all (exports, checks), since it walks the table once without an index.
    public func forEveryItem(_ body: (Item) throws -> Void) throws {
        try database.withStatement("SELECT \(ItemRepository.columns) FROM items") { statement in
            while try statement.step() {
                try body(try ItemRepository.decode(statement))
            }
        }
    }

    /// Every item in storage order, unsorted.
    public func everyItem() throws -> [Item] {
        // Its own loop rather than forEveryItem with an appending closure: a closure call per
        // row is measurable when reading a million rows.
        try database.withStatement("SELECT \(ItemRepository.columns) FROM items") { statement in
            var items: [Item] = []
            while try statement.step() {
                items.append(try ItemRepository.decode(statement))
            }
            return items
        }
    }

    /// How many items there are.
    public func count() throws -> Int {
        try database.withStatement("SELECT count(*) FROM items") { statement in
            try statement.step()
            return statement.int(at: 0)
        }
    }

    /// Applies `edit` to the item with `id` and returns the result.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)``, ``InventoryError``.
    @discardableResult
    public func update(id: UUID, with edit: ItemEdit) throws -> Item {
        try database.inTransaction {
            let updated = try edit.applied(to: try item(id: id))
            try updated.validate()
            try database.withStatement("""
                UPDATE items SET name = ?2, color = ?3, status = ?4, quantity = ?5, is_on_back_order = ?6, updated_at = ?7
                WHERE id = ?1
                """) { statement in
                try ItemColumns.bind(updated, to: statement, at: 0)
                try statement.bind(Timestamp.now(), at: 6)
                try statement.run()
            }
            return updated
        }
    }

    /// Deletes the item with `id`. Drafts duplicated from it keep their copy and still save.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)``.
    public func delete(id: UUID) throws {
        try database.inTransaction {
            try database.withStatement("DELETE FROM items WHERE id = ?") { statement in
                try statement.bind(id, at: 0)
                try statement.run()
            }
            if database.changes == 0 { throw StoreError.notFound(.item, id.lowercasedString) }
        }
    }

    /// Resolves a full id or a unique prefix of at least 4 characters, in any letter case.
    public func resolveID(_ text: String) throws -> UUID {
        try IDPrefix.resolve(text, in: "items", record: .item, database: database)
    }

    @inline(__always)
    static func decode(_ statement: Statement) throws -> Item {
        do {
            return try ItemColumns.decode(from: statement, at: 0)
        } catch {
            throw StoreError.undecodableRow(table: "items", id: statement.text(at: 0), reason: error.reason)
        }
    }
}

extension Database {
    /// Runs `body` in a new write transaction, or in a savepoint when one is already open.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        isAutocommit ? try writeTransaction(body) : try savepoint("stockroom", body)
    }
}
