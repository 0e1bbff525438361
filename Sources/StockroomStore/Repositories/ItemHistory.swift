import FoundationEssentials
import Glibc
import Inventory
import SQLiteCore

/// The layout of the `item_events` table, shared by every engine and by import and check:
/// every change to an item, numbered by version. ``HistoryRecords`` reads and appends it.
///
/// Appending happens only inside the transaction of the change it records (see
/// ``ItemRepository``); the table itself refuses updates and deletes.
enum ItemHistory {
    static let table = "item_events"

    /// `item_id, version, recorded_at` then the event's columns, with each group's bind position.
    struct Layout {
        let columns: ColumnLayout
        let itemID: Int, version: Int, recordedAt: Int, event: Int

        init() {
            var columns = ColumnLayout()
            itemID = columns.add("item_id")
            version = columns.add("version")
            recordedAt = columns.add("recorded_at")
            event = columns.add(ItemEventCodec.columns())
            self.columns = columns
        }
    }

    static let layout = Layout()
    static let insertSQL = "INSERT INTO \(table) (\(layout.columns.list)) VALUES (\(layout.columns.placeholders))"
    static let selectColumns = layout.columns.list

    /// Appends `event` as `version` of the item with `itemID`.
    @inline(__always)
    static func append<Statement: StoreStatement>(_ event: ItemEvent, itemID: UUID, version: Int, recordedAt: String, with statement: Statement) throws {
        var time = recordedAt
        try time.withUTF8 { bytes in try append(event, itemID: itemID, version: version, recordedAt: bytes, with: statement) }
    }

    /// Appends `event` with its time as UTF-8 bytes, so a bulk writer holding the time as bytes
    /// makes no `String` per event.
    @inline(__always)
    static func append<Statement: StoreStatement>(_ event: ItemEvent, itemID: UUID, version: Int, recordedAt: UnsafeBufferPointer<UInt8>, with statement: Statement) throws {
        let layout = ItemHistory.layout
        var row = RowBinder(statement, at: layout.itemID)
        try row.bind(itemID)
        try row.bind(version)
        try row.bindText(recordedAt)
        try ItemEventCodec.bind(event, to: &row)
        try statement.run()
    }

    /// Version 1 (`added`) of every item in `items`, dated with its `updated_at`, in one
    /// statement: for a bulk load into a database without history, several times cheaper than
    /// an INSERT per item. Columns and the tag come from the codecs.
    static let addedForEveryItemSQL: String = {
        let names = layout.columns.names
        let pairs = ItemEventCodec.addedColumnsFromItems
        let items = ItemRepository.insertLayout.columns.names
        let id = items[ItemRepository.insertLayout.item], updatedAt = items[ItemRepository.insertLayout.updatedAt]
        return "INSERT INTO \(table) (\(names[layout.itemID]), \(names[layout.version]), \(names[layout.recordedAt]), \(names[layout.event]), "
            + pairs.map(\.event).joined(separator: ", ")
            + ") SELECT \(id), 1, \(updatedAt), \(ItemEventCodec.literal(.added)), " + pairs.map(\.item).joined(separator: ", ")
            + " FROM items ORDER BY \(id)"
    }()

    /// Decodes one row selected with ``selectColumns``.
    static func decode<Source: ColumnSource>(_ statement: Source) throws -> RecordedItemEvent {
        let layout = ItemHistory.layout
        do {
            guard let itemID = statement.uuid(at: layout.itemID) else {
                throw ColumnDecodingError(reason: "item_id \(statement.describeColumn(at: layout.itemID)) is not a UUID")
            }
            var row = RowReader(statement, at: layout.event)
            let event = try ItemEventCodec.decode(from: &row, itemID: itemID)
            return RecordedItemEvent(itemID: itemID, version: statement.int(at: layout.version),
                                     recordedAt: statement.text(at: layout.recordedAt), event: event)
        } catch let error as ColumnDecodingError {
            throw StoreError.undecodableRow(table: table, id: "\(statement.text(at: layout.itemID)) version \(statement.int(at: layout.version))", reason: error.reason)
        }
    }
}

/// The `item_events` table on one engine's connection.
struct HistoryRecords<Connection: StoreConnection> {
    let connection: Connection

    func append(_ event: ItemEvent, itemID: UUID, version: Int, recordedAt: String) throws {
        try connection.withStatement(ItemHistory.insertSQL) { statement in
            try ItemHistory.append(event, itemID: itemID, version: version, recordedAt: recordedAt, with: statement)
        }
    }

    /// True when no item has any history yet.
    func isEmpty() throws -> Bool {
        try connection.withStatement("SELECT CASE WHEN EXISTS (SELECT 1 FROM \(ItemHistory.table)) THEN 0 ELSE 1 END") { statement in
            _ = try statement.step()
            return statement.int(at: 0) == 1
        }
    }

    /// The item's latest version, 0 when it has no history.
    func version(of itemID: UUID) throws -> Int {
        try connection.withStatement("SELECT coalesce(max(version), 0) FROM \(ItemHistory.table) WHERE item_id = ?") { statement in
            try statement.bind(itemID, at: 0)
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// The item's events, oldest first.
    func events(of itemID: UUID) throws -> [RecordedItemEvent] {
        try connection.withStatement("SELECT \(ItemHistory.selectColumns) FROM \(ItemHistory.table) WHERE item_id = ? ORDER BY version") { statement in
            try statement.bind(itemID, at: 0)
            var events: [RecordedItemEvent] = []
            while try statement.step() { events.append(try ItemHistory.decode(statement)) }
            return events
        }
    }

    /// The item's events as the raw columns: their names, then each row's fields as text.
    func columns(of itemID: UUID) throws -> (names: [String], rows: [[String]]) {
        try connection.withStatement("SELECT \(ItemHistory.selectColumns) FROM \(ItemHistory.table) WHERE item_id = ? ORDER BY version") { statement in
            try statement.bind(itemID, at: 0)
            var rows: [[String]] = []
            while try statement.step() {
                rows.append((0..<statement.columnCount).map(statement.fieldText(at:)))
            }
            return ((0..<statement.columnCount).map(statement.columnName(at:)), rows)
        }
    }
}
