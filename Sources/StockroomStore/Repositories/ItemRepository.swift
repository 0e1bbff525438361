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

    /// The columns an `Item` is read from, in decoding order.
    static let columns = ColumnLayout.of(ItemCodec.columns()).list
    /// The names of the columns an item is stored in (`id, name, color, status, …`), in order.
    public static var columnNames: [String] { ItemCodec.columns() }

    /// The item's columns then `created_at, updated_at`, with each group's bind position.
    struct InsertLayout {
        let columns: ColumnLayout
        let item: Int, createdAt: Int, updatedAt: Int

        init() {
            var columns = ColumnLayout()
            item = columns.add(ItemCodec.columns())
            createdAt = columns.add("created_at")
            updatedAt = columns.add("updated_at")
            self.columns = columns
        }
    }

    static let insertLayout = InsertLayout()
    static let insertSQL = "INSERT INTO items (\(insertLayout.columns.list)) VALUES (\(insertLayout.columns.placeholders))"

    /// Adds one item, as version 1 of its history.
    ///
    /// - Throws: ``InventoryError`` for a blank name or invalid quantity; ``SQLiteError`` (a
    ///   constraint) when the id already exists.
    public func insert(_ item: Item) throws {
        try item.validate()
        let now = Timestamp.now()
        try database.inTransaction {
            try database.withStatement(ItemRepository.insertSQL) { statement in
                try ItemRepository.bindInsert(item, now: now, to: statement)
            }
            try history.append(.added(item), itemID: item.id, version: 1, recordedAt: now)
        }
    }

    /// Adds many items in one transaction: all of them or, on the first error, none. Each gets
    /// version 1 of its history.
    public func insert<Items: Sequence>(contentsOf items: Items) throws where Items.Element == Item {
        let now = Timestamp.now()
        try database.inTransaction {
            let statement = try database.cachedStatement(ItemRepository.insertSQL)
            defer { statement.reset() }
            let events = try database.cachedStatement(ItemHistory.insertSQL)
            defer { events.reset() }
            for item in items {
                try item.validate()
                try ItemRepository.bindInsert(item, now: now, to: statement)
                statement.reset()
                try ItemHistory.append(.added(item), itemID: item.id, version: 1, recordedAt: now, with: events)
                events.reset()
            }
        }
    }

    @inline(__always)
    static func bindInsert(_ item: Item, now: String, to statement: Statement) throws {
        let layout = ItemRepository.insertLayout
        var row = RowBinder(statement, at: layout.item)
        try ItemCodec.bind(item, to: &row)
        try statement.bind(now, at: layout.createdAt)
        try statement.bind(now, at: layout.updatedAt)
        try statement.run()
    }

    var history: ItemHistory { ItemHistory(database: database) }

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

    /// The UPDATE of an item's fields and `updated_at`, by id.
    struct UpdateLayout {
        let sql: String
        let item: Int, updatedAt: Int

        init() {
            var columns = ColumnLayout()
            item = columns.add(ItemCodec.columns())
            updatedAt = columns.add("updated_at")
            let id = columns.names[item]
            let assignments = columns.assignments(skipping: id)
            sql = "UPDATE items SET \(assignments) WHERE \(id) = ?\(item + 1)"
        }
    }

    static let updateLayout = UpdateLayout()

    /// Applies `edit` to the item with `id` and returns the result; when anything changed, the
    /// change is recorded as the item's next version.
    ///
    /// - Parameter expectedVersion: when given, the update happens only if the item is still at
    ///   this version.
    /// - Throws: ``StoreError/notFound(_:_:)``, ``StoreError/versionConflict(id:expected:current:)``,
    ///   ``InventoryError``.
    @discardableResult
    public func update(id: UUID, with edit: ItemEdit, ifVersion expectedVersion: Int? = nil) throws -> Item {
        try database.inTransaction {
            let current = try item(id: id)
            let version = try history.version(of: id)
            if let expectedVersion, expectedVersion != version {
                throw StoreError.versionConflict(id: id.lowercasedString, expected: expectedVersion, current: version)
            }
            let updated = try edit.applied(to: current)
            try updated.validate()
            guard let changes = ItemChanges(from: current, to: updated) else { return current }
            let now = Timestamp.now()
            let layout = ItemRepository.updateLayout
            try database.withStatement(layout.sql) { statement in
                var row = RowBinder(statement, at: layout.item)
                try ItemCodec.bind(updated, to: &row)
                try statement.bind(now, at: layout.updatedAt)
                try statement.run()
            }
            try history.append(.changed(changes), itemID: id, version: version + 1, recordedAt: now)
            return updated
        }
    }

    /// Deletes the item with `id` and records the deletion in its history, which stays. Drafts
    /// duplicated from it keep their copy and still save.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)``.
    public func delete(id: UUID) throws {
        try database.inTransaction {
            try database.withStatement("DELETE FROM items WHERE id = ?") { statement in
                try statement.bind(id, at: 0)
                try statement.run()
            }
            if database.changes == 0 { throw StoreError.notFound(.item, id.lowercasedString) }
            try history.append(.deleted, itemID: id, version: try history.version(of: id) + 1, recordedAt: Timestamp.now())
        }
    }

    /// The item's current version: 1 when added, one more for each change since.
    public func version(id: UUID) throws -> Int {
        try history.version(of: id)
    }

    /// The item's history, oldest first; it outlives the item.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)`` when no item with `id` ever existed.
    public func history(id: UUID) throws -> [RecordedItemEvent] {
        let events = try history.events(of: id)
        if events.isEmpty { throw StoreError.notFound(.item, id.lowercasedString) }
        return events
    }

    /// The item's history as the raw columns of `item_events`: their names, then one row of
    /// values as text per event (NULL as an empty field), oldest first.
    public func historyColumns(id: UUID) throws -> (names: [String], rows: [[String]]) {
        try database.withStatement("SELECT \(ItemHistory.selectColumns) FROM \(ItemHistory.table) WHERE item_id = ? ORDER BY version") { statement in
            try statement.bind(id, at: 0)
            var rows: [[String]] = []
            while try statement.step() {
                rows.append((0..<statement.columnCount).map { index in
                    switch statement.value(at: index) {
                    case .null: ""
                    case .integer(let value): String(value)
                    case .real(let value): String(value)
                    case .text(let value): value
                    case .blob(let bytes): bytes.map { String($0, radix: 16) }.joined()
                    }
                })
            }
            return ((0..<statement.columnCount).map(statement.columnName(at:)), rows)
        }
    }

    /// Resolves a full id or a unique prefix of an item that has a history, deleted or not.
    public func resolveHistoryID(_ text: String) throws -> UUID {
        try IDPrefix.resolve(text, in: ItemHistory.table, column: "item_id", record: .item, database: database)
    }

    /// Resolves a full id or a unique prefix of at least 4 characters, in any letter case.
    public func resolveID(_ text: String) throws -> UUID {
        try IDPrefix.resolve(text, in: "items", record: .item, database: database)
    }

    @inline(__always)
    static func decode(_ statement: Statement) throws -> Item {
        do {
            var row = RowReader(statement)
            return try ItemCodec.decode(from: &row)
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
