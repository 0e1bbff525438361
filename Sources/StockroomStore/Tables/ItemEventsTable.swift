import FoundationEssentials
import Glibc
import Inventory

/// The `item_events` table, described once: its name, its columns and its layout, shared by
/// every engine and by copy and check: every change to an item, numbered by version.
/// ``HistoryRecords`` reads it; `TableSchemaTests` checks it against `Migrations/`.
///
/// Nothing in Swift appends to it: the database's triggers on `items` (migration 0004) write
/// each event in the transaction of the change, whoever makes it, with what the writer
/// declared in ``ItemEventContextTable`` (0011); the table refuses updates, deletes and events
/// that do not follow on.
enum ItemEventsTable {
    /// The table's name.
    static let name = "item_events"
    /// The primary key, in order: the order events are read in by copy and check.
    static let keyColumns = [itemIDColumn, "version"]
    /// ``keyColumns`` as an SQL list, for an ORDER BY.
    static let keyList = keyColumns.joined(separator: ", ")
    /// The column naming the item an event belongs to.
    static let itemIDColumn = "item_id"

    /// `item_id, version, recorded_at`, the event's columns, then how it was made
    /// (``EventDetailsCodec``), with each group's bind position.
    struct Layout {
        let columns: ColumnLayout
        let itemID: Int, version: Int, recordedAt: Int, event: Int, details: Int

        init() {
            var columns = ColumnLayout()
            itemID = columns.add(itemIDColumn)
            version = columns.add("version")
            recordedAt = columns.add("recorded_at")
            event = columns.add(ItemEventCodec.columns())
            details = columns.add(EventDetailsCodec.columns)
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
        let layout = ItemEventsTable.layout
        do {
            guard let itemID = statement.uuid(at: layout.itemID) else {
                throw ColumnDecodingError(reason: "item_id \(statement.describeColumn(at: layout.itemID)) is not a UUID")
            }
            var row = RowReader(statement, at: layout.event)
            let event = try ItemEventCodec.decode(from: &row, itemID: itemID)
            var detailsRow = RowReader(statement, at: layout.details)
            let details = try EventDetailsCodec.decode(from: &detailsRow, kind: event.case)
            return RecordedItemEvent(itemID: itemID, version: statement.int(at: layout.version),
                                     recordedAt: statement.text(at: layout.recordedAt), event: event,
                                     adjustedBy: details.adjustedBy, origin: details.origin, intentID: details.intentID)
        } catch let error as ColumnDecodingError {
            throw StoreError.undecodableRow(table: name, id: "\(statement.text(at: layout.itemID)) version \(statement.int(at: layout.version))", reason: error.reason)
        }
    }
}
