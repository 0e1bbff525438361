import FoundationEssentials
import Glibc
import Inventory

/// Reads and writes the `items` table, on SQLite or PostgreSQL.
///
/// Every method that writes runs in one transaction of its own, or inside the caller's
/// transaction when one is open. Items are validated before they are written, so a domain
/// rule fails with an `InventoryError` before the database's CHECK constraints are ever
/// reached. The work is written once, in `ItemRecords`, generic over the engine; this type
/// holds the engine's connection as `ItemStorage`, whose implementation is specialised for
/// each engine's connection type, so SQLite's path makes direct calls.
public struct ItemRepository {
    /// The engine's connection: each call below is one dynamic call into the copy of
    /// ``ItemStorage``'s implementation specialised for it (Seam/EngineConnection.swift).
    let storage: any ItemStorage

    init(storage: any ItemStorage) { self.storage = storage }

    /// Adds one item; the database records version 1 (`added`) of its history.
    ///
    /// - Throws: `InventoryError` for a blank name or invalid quantity; the engine's
    ///   constraint error when the id already exists.
    public func insert(_ item: Item) throws {
        try storage.insertItem(item)
    }

    /// Adds many items in one transaction: all of them or, on the first error, none. The
    /// database records version 1 of each one's history.
    public func insert<Items: Sequence>(contentsOf items: Items) throws where Items.Element == Item {
        try storage.insertItems(contentsOf: items)
    }

    /// The item with `id`.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)`` or ``StoreError/undecodableRow(table:id:reason:)``.
    public func item(id: UUID) throws -> Item {
        try storage.item(id: id)
    }

    /// The items matching `query`, ordered by name then id: what `stockroom items list` and
    /// `GET /api/items` show, and so named after them (`store.items.list(matching:)`).
    public func list(matching query: ItemQuery = ItemQuery()) throws -> [Item] {
        var items: [Item] = []
        if let limit = query.limit { items.reserveCapacity(min(limit, 10_000)) }
        try forEachItem(matching: query) { items.append($0) }
        return items
    }

    /// The items matching `query`: ``list(matching:)``, whose old name read
    /// `store.items.items(matching:)` (issue 37).
    @available(*, deprecated, renamed: "list(matching:)")
    public func items(matching query: ItemQuery = ItemQuery()) throws -> [Item] {
        try list(matching: query)
    }

    /// Calls `body` with each item matching `query` as it is read, without holding all of them.
    public func forEachItem(matching query: ItemQuery = ItemQuery(), _ body: (Item) throws -> Void) throws {
        try storage.forEachItem(matching: query, body)
    }

    /// Calls `body` with every item in storage order, unsorted: the cheapest way to read them
    /// all (exports, checks), since it walks the table once without an index.
    public func forEveryItem(_ body: (Item) throws -> Void) throws {
        try storage.forEveryItem(body)
    }

    /// Every item in storage order, unsorted.
    public func everyItem() throws -> [Item] {
        try storage.everyItem()
    }

    /// How many items there are.
    public func count() throws -> Int {
        try storage.itemCount()
    }

    /// Applies `edit` to the item with `id` and returns the result; when anything changed, the
    /// change is recorded as the item's next version.
    ///
    /// - Parameters:
    ///   - id: the item.
    ///   - edit: what changes.
    ///   - expectedVersion: when given, the update happens only if the item is still at this
    ///     version.
    /// - Throws: ``StoreError/notFound(_:_:)``, ``StoreError/versionConflict(id:expected:current:)``,
    ///   `InventoryError`.
    @discardableResult
    public func update(id: UUID, with edit: ItemEdit, ifVersion expectedVersion: Int? = nil) throws -> Item {
        try storage.updateItem(id: id, with: edit, ifVersion: expectedVersion)
    }

    /// Changes the item's quantity by `change` relative to what is stored when the write
    /// commits (`Status.adjusted(by:)`), and returns the result. The read and the write are
    /// one write transaction (SQLite's write lock taken at `BEGIN IMMEDIATE`; PostgreSQL's row
    /// lock taken by the read), so adjustments made at once all count, each one version.
    ///
    /// This is how a sale or a delivery is counted. ``update(id:with:ifVersion:)`` with a
    /// quantity computed from one read before would lose a sale made meanwhile elsewhere; this
    /// cannot. Taking the last one makes the item out of stock; a delivery to an item out of
    /// stock puts it in stock again.
    ///
    /// ```swift
    /// let sold = try await pool.write { store in try store.items.adjust(id: keyboard.id, by: -1) }
    /// let delivered = try await pool.write { store in try store.items.adjust(id: keyboard.id, by: 50) }
    /// ```
    ///
    /// - Parameters:
    ///   - id: the item.
    ///   - change: how many to add (received) or, negative, to take (sold).
    ///   - expectedVersion: when given, the adjustment happens only if the item is still at
    ///     this version; without it, none is needed for concurrent adjustments to add up.
    /// - Throws: ``StoreError/notFound(_:_:)``, ``StoreError/versionConflict(id:expected:current:)``,
    ///   `InventoryError.notEnoughInStock(available:requested:)` (nothing changed).
    @discardableResult
    public func adjust(id: UUID, by change: Int, ifVersion expectedVersion: Int? = nil) throws -> Item {
        try storage.adjustItem(id: id, by: change, ifVersion: expectedVersion)
    }

    /// Deletes the item with `id` and records the deletion in its history, which stays. Drafts
    /// duplicated from it keep their copy and still save.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)``.
    public func delete(id: UUID) throws {
        try storage.deleteItem(id: id)
    }

    /// The item's current version: 1 when added, one more for each change since.
    public func version(id: UUID) throws -> Int {
        try storage.itemVersion(of: id)
    }

    /// The item's history, oldest first; it outlives the item.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)`` when no item with `id` ever existed.
    public func history(id: UUID) throws -> [RecordedItemEvent] {
        let events = try storage.itemEvents(of: id)
        if events.isEmpty { throw StoreError.notFound(.item, id.lowercasedString) }
        return events
    }

    /// Up to `limit` events of every item, in the order they were committed, starting after
    /// `position` (from the very first when nil). An event's position is its place among all
    /// events, 1, 2, 3, … without gaps (given by the database's triggers, migration 0004), so a
    /// reader that passes the last position it saw never misses or repeats an event.
    ///
    /// - Parameters:
    ///   - position: the last position already seen, or nil to start at the first event.
    ///   - limit: at most this many events (1 or more).
    /// - Returns: the events, oldest position first; fewer than `limit` when no more are committed.
    public func events(after position: Int64?, limit: Int) throws -> [PositionedItemEvent] {
        precondition(limit >= 1, "a page holds at least one event")
        return try storage.events(after: position, limit: limit)
    }

    /// The item's name as of `version` of its history: the last name it was added with or
    /// renamed to at or before that version, even when the item was deleted since; nil when
    /// no item with `id` ever existed. What a reader of events (``events(after:limit:)``,
    /// ``HistoryEvents``) shows beside an item whose naming event it did not read
    /// (`Presentation.nameGiven(by:)` gives the name of the events it did).
    public func name(id: UUID, atVersion version: Int) throws -> String? {
        try storage.itemName(of: id, atVersion: version)
    }

    /// The position of the last event committed (0 when there is none): where a reader that
    /// wants only what happens from now on starts (`events(after: lastEventPosition(), …)`, or
    /// `HistoryEvents(location:after:)` with it), where nil or 0 would start at the first event.
    public func lastEventPosition() throws -> Int64 {
        try storage.lastEventPosition()
    }

    /// The item's history as the raw columns of `item_events`: their names, then one row of
    /// values as text per event (NULL as an empty field), oldest first.
    package func historyColumns(id: UUID) throws -> (names: [String], rows: [[String]]) {
        try storage.historyColumns(of: id)
    }

    /// Resolves a full id or a unique prefix of an item that has a history, deleted or not.
    public func resolveHistoryID(_ text: String) throws -> UUID {
        try storage.resolveItemID(text, inHistory: true)
    }

    /// Resolves a full id or a unique prefix of at least 4 characters, in any letter case.
    public func resolveID(_ text: String) throws -> UUID {
        try storage.resolveItemID(text, inHistory: false)
    }

    /// The names of the columns an item is stored in (`id, name, color, status, …`), in order:
    /// the table's own (`ItemsTable`).
    public static var columnNames: [String] { ItemsTable.itemColumns }

    /// The item's value in each of ``columnNames``, as text (NULL as ""): what its row holds,
    /// written by the codec that stores it.
    public static func columnTexts(for item: Item) -> [String] {
        let row = ColumnTextRow(count: ItemsTable.itemColumns.count)
        var binder = RowBinder(row)
        // Binding into an array of strings cannot fail.
        _ = try? ItemCodec.bind(item, to: &binder)
        return row.fields
    }
}

/// What ``ItemRepository`` asks of the engine's connection: ``ItemRecords``' work as
/// requirements of the connection itself. Each is implemented once, below, over
/// ``StoreConnection``; an engine's connection type conforms as it is
/// (``EngineConnection``), and since that conformance is of the concrete type, not of a
/// generic one, its witnesses are copies specialised for that type: a repository call is one
/// dynamic call, and everything under it (each row's statement and codec calls) direct calls,
/// as with the per-engine switch this replaces (BENCHMARKS.md, issue 13).
protocol ItemStorage: StoreConnection {
    func insertItem(_ item: Item) throws
    func insertItems<Items: Sequence>(contentsOf items: Items) throws where Items.Element == Item
    func item(id: UUID) throws -> Item
    func forEachItem(matching query: ItemQuery, _ body: (Item) throws -> Void) throws
    func forEveryItem(_ body: (Item) throws -> Void) throws
    func everyItem() throws -> [Item]
    func itemCount() throws -> Int
    func updateItem(id: UUID, with edit: ItemEdit, ifVersion expectedVersion: Int?) throws -> Item
    func adjustItem(id: UUID, by change: Int, ifVersion expectedVersion: Int?) throws -> Item
    func deleteItem(id: UUID) throws
    func itemVersion(of id: UUID) throws -> Int
    func itemEvents(of id: UUID) throws -> [RecordedItemEvent]
    func events(after position: Int64?, limit: Int) throws -> [PositionedItemEvent]
    func lastEventPosition() throws -> Int64
    func itemName(of id: UUID, atVersion version: Int) throws -> String?
    func historyColumns(of id: UUID) throws -> (names: [String], rows: [[String]])
    /// The item whose full id or unique prefix is `text`: among the stored items, or (with
    /// `inHistory`) among every item that has a history, deleted or not.
    func resolveItemID(_ text: String, inHistory: Bool) throws -> UUID
}

extension ItemStorage {
    private var records: ItemRecords<Self> { ItemRecords(connection: self) }

    func insertItem(_ item: Item) throws { try records.insert(item) }
    func insertItems<Items: Sequence>(contentsOf items: Items) throws where Items.Element == Item {
        try records.insert(contentsOf: items)
    }
    func item(id: UUID) throws -> Item { try records.item(id: id) }
    func forEachItem(matching query: ItemQuery, _ body: (Item) throws -> Void) throws {
        try records.forEachItem(matching: query, body)
    }
    func forEveryItem(_ body: (Item) throws -> Void) throws { try records.forEveryItem(body) }
    func everyItem() throws -> [Item] { try records.everyItem() }
    func itemCount() throws -> Int { try records.count() }
    func updateItem(id: UUID, with edit: ItemEdit, ifVersion expectedVersion: Int?) throws -> Item {
        try records.update(id: id, with: edit, ifVersion: expectedVersion)
    }
    func adjustItem(id: UUID, by change: Int, ifVersion expectedVersion: Int?) throws -> Item {
        try records.adjust(id: id, by: change, ifVersion: expectedVersion)
    }
    func deleteItem(id: UUID) throws { try records.delete(id: id) }
    func itemVersion(of id: UUID) throws -> Int { try records.history.version(of: id) }
    func itemEvents(of id: UUID) throws -> [RecordedItemEvent] { try records.history.events(of: id) }
    func events(after position: Int64?, limit: Int) throws -> [PositionedItemEvent] {
        try records.history.events(after: position, limit: limit)
    }
    func lastEventPosition() throws -> Int64 { try records.history.lastPosition() }
    func itemName(of id: UUID, atVersion version: Int) throws -> String? {
        try records.history.name(of: id, atVersion: version)
    }
    func historyColumns(of id: UUID) throws -> (names: [String], rows: [[String]]) {
        try records.history.columns(of: id)
    }
    func resolveItemID(_ text: String, inHistory: Bool) throws -> UUID {
        inHistory
            ? try IDPrefix.resolve(text, in: ItemEventsTable.name, column: ItemEventsTable.itemIDColumn, record: .item, connection: self)
            : try IDPrefix.resolve(text, in: ItemsTable.name, record: .item, connection: self)
    }
}

/// The `items` table on one engine's connection: what ``ItemRepository`` does, written once.
struct ItemRecords<Connection: StoreConnection> {
    let connection: Connection

    var history: HistoryRecords<Connection> { HistoryRecords(connection: connection) }

    func insert(_ item: Item) throws {
        try item.validate()
        let now = Timestamp.now()
        try connection.inTransaction {
            try connection.withStatement(ItemsTable.insertSQL) { statement in
                try ItemsTable.bindInsert(item, now: now, to: statement)
            }
        }
    }

    func insert<Items: Sequence>(contentsOf items: Items) throws where Items.Element == Item {
        let now = Timestamp.now()
        try connection.inTransaction {
            let statement = try connection.cachedStatement(ItemsTable.insertSQL)
            defer { statement.reset() }
            for item in items {
                try item.validate()
                try ItemsTable.bindInsert(item, now: now, to: statement)
                statement.reset()
            }
        }
    }

    /// The item with `id`; `locking` it for the rest of the transaction on engines with row locks.
    func item(id: UUID, locking: Bool = false) throws -> Item {
        let sql = locking ? ItemsTable.selectByID + connection.dialect.lockingRead : ItemsTable.selectByID
        let found = try connection.withStatement(sql) { statement in
            try statement.bind(id, at: 0)
            return try statement.step() ? try ItemsTable.decode(statement) : nil
        }
        guard let found else { throw StoreError.notFound(.item, id.lowercasedString) }
        return found
    }

    func forEachItem(matching query: ItemQuery, _ body: (Item) throws -> Void) throws {
        // A search term the trigram index can serve (ItemSearch.swift); else the plan below.
        if try forEachSearchedItem(matching: query, body) { return }
        let (condition, bindConditions): (String, (Connection.Statement) throws -> Int) = query.whereClause(connection.dialect)
        let sql = "\(ItemsTable.selectAll)\(condition) ORDER BY name, id LIMIT ? OFFSET ?"
        try connection.withStatement(sql) { statement in
            let next = try bindConditions(statement)
            try connection.bindLimit(query.limit, to: statement, at: next)
            try statement.bind(query.offset, at: next + 1)
            while try statement.step() {
                try body(try ItemsTable.decode(statement))
            }
        }
    }

    func forEveryItem(_ body: (Item) throws -> Void) throws {
        try connection.withStatement(ItemsTable.selectAll) { statement in
            while try statement.step() {
                try body(try ItemsTable.decode(statement))
            }
        }
    }

    func everyItem() throws -> [Item] {
        // Its own loop rather than forEveryItem with an appending closure: a closure call per
        // row is measurable when reading a million rows.
        try connection.withStatement(ItemsTable.selectAll) { statement in
            var items: [Item] = []
            while try statement.step() {
                if items.isEmpty, let total = statement.knownRowCount { items.reserveCapacity(total) }
                items.append(try ItemsTable.decode(statement))
            }
            return items
        }
    }

    func count() throws -> Int {
        try connection.withStatement(ItemsTable.count) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    func update(id: UUID, with edit: ItemEdit, ifVersion expectedVersion: Int?) throws -> Item {
        try change(id: id, ifVersion: expectedVersion) { current in
            let updated = try edit.applied(to: current)
            try updated.validate()
            return updated
        }
    }

    func adjust(id: UUID, by quantityChange: Int, ifVersion expectedVersion: Int?) throws -> Item {
        // Declared, so the history says "adjusted by N" and not only the quantity's from and to
        // (and a replica's capture makes it an adjustment, which always adds up at the hub).
        try change(id: id, ifVersion: expectedVersion, details: EventDetails(adjustedBy: quantityChange)) { current in
            var adjusted = current
            adjusted.status = try current.status.adjusted(by: quantityChange)
            return adjusted
        }
    }

    /// Reads the item locked for this write transaction, checks its version, and writes what
    /// `transform` makes of it: the read-modify-write every change of an item is, so that the
    /// value transformed is the one stored when the write commits. `details` are declared for
    /// the history around the write (StoreConnection.withEventContext), when there are any.
    private func change(id: UUID, ifVersion expectedVersion: Int?, details: EventDetails = .none,
                        _ transform: (Item) throws -> Item) throws -> Item {
        try connection.inTransaction {
            // The history turn before the row lock, the order an import's replace takes them
            // in (a row lock held while waiting for the turn could deadlock with it).
            try connection.takeHistoryTurn()
            let current = try item(id: id, locking: true)
            if let expectedVersion {
                let version = try history.version(of: id)
                if expectedVersion != version {
                    throw StoreError.versionConflict(id: id.lowercasedString, expected: expectedVersion, current: version)
                }
            }
            let updated = try transform(current)
            // Nothing changed: no write, so no version (the trigger would record none either).
            guard ItemChanges(from: current, to: updated) != nil else { return current }
            let now = Timestamp.now()
            let layout = ItemsTable.updateLayout
            func write() throws {
                try connection.withStatement(layout.sql) { statement in
                    var row = RowBinder(statement, at: layout.item)
                    try ItemCodec.bind(updated, to: &row)
                    try statement.bind(now, at: layout.updatedAt)
                    try statement.run()
                }
            }
            // The turn is held already (above), so the context is declared without taking it again.
            if details == .none { try write() } else { try connection.declaring(details, for: id, write) }
            // The database records the change as the next version (trigger items_record_changes).
            return updated
        }
    }

    func delete(id: UUID) throws {
        try connection.inTransaction {
            try connection.withStatement(ItemsTable.deleteByID) { statement in
                try statement.bind(id, at: 0)
                try statement.run()
            }
            // The database records the deletion (trigger items_record_deletion).
            if connection.changes == 0 { throw StoreError.notFound(.item, id.lowercasedString) }
        }
    }
}
