import FoundationEssentials
import Glibc
import Inventory
import SQLiteCore

/// The layout of the `item_events` table, shared by every engine and by copy and check: every
/// change to an item, numbered by version. ``HistoryRecords`` reads it.
///
/// Nothing in Swift appends to it: the database's triggers on `items` (migration 0004) write
/// each event in the transaction of the change, whoever makes it; the table refuses updates,
/// deletes and events that do not follow on.
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
    static let selectColumns = layout.columns.list

    /// The column numbering every event in commit order (migration 0004): 1, 2, 3, … across all
    /// items, without gaps. The triggers fill it; it is read by ``positionedColumns`` and copied.
    static let positionColumn = "position"
    /// ``selectColumns`` then ``positionColumn``, whose index is ``positionIndex``.
    static let positionedColumns = selectColumns + ", " + positionColumn
    static let positionIndex = layout.columns.names.count

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

    /// The position of the last event committed; 0 when there is none.
    func lastPosition() throws -> Int64 {
        let sql = "SELECT max(\(ItemHistory.positionColumn)) FROM \(ItemHistory.table)"
        return try connection.withStatement(sql) { statement in
            _ = try statement.step()
            return Int64(statement.int(at: 0))
        }
    }

    /// Up to `limit` events of every item with a position after `position` (from the first when
    /// nil), in position order: commit order.
    func events(after position: Int64?, limit: Int) throws -> [PositionedItemEvent] {
        let sql = "SELECT \(ItemHistory.positionedColumns) FROM \(ItemHistory.table) WHERE \(ItemHistory.positionColumn) > ? ORDER BY \(ItemHistory.positionColumn) LIMIT ?"
        return try connection.withStatement(sql) { statement in
            try statement.bind(Int(position ?? 0), at: 0)
            try statement.bind(limit, at: 1)
            var events: [PositionedItemEvent] = []
            while try statement.step() {
                let event = try ItemHistory.decode(statement)
                events.append(PositionedItemEvent(position: Int64(statement.int(at: ItemHistory.positionIndex)), recorded: event))
            }
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
