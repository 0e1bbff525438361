import FoundationEssentials
import Glibc
import Inventory

/// The `item_events` table on one engine's connection.
struct HistoryRecords<Connection: StoreConnection> {
    let connection: Connection

    /// The item's latest version, 0 when it has no history.
    func version(of itemID: UUID) throws -> Int {
        try connection.withStatement("SELECT coalesce(max(version), 0) FROM \(ItemEventsTable.name) WHERE item_id = ?") { statement in
            try statement.bind(itemID, at: 0)
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// The item's events, oldest first.
    func events(of itemID: UUID) throws -> [RecordedItemEvent] {
        try connection.withStatement("SELECT \(ItemEventsTable.selectColumns) FROM \(ItemEventsTable.name) WHERE item_id = ? ORDER BY version") { statement in
            try statement.bind(itemID, at: 0)
            var events: [RecordedItemEvent] = []
            while try statement.step() { events.append(try ItemEventsTable.decode(statement)) }
            return events
        }
    }

    /// The item's name at `version`: the last one an event gave it at or before that version
    /// (added, renamed); nil when none did (no such item).
    func name(of itemID: UUID, atVersion version: Int) throws -> String? {
        let column = ItemField.name.toColumn
        let sql = "SELECT \(column) FROM \(ItemEventsTable.name) WHERE item_id = ? AND version <= ? AND \(column) IS NOT NULL ORDER BY version DESC LIMIT 1"
        return try connection.withStatement(sql) { statement in
            try statement.bind(itemID, at: 0)
            try statement.bind(version, at: 1)
            return try statement.step() ? statement.optionalText(at: 0) : nil
        }
    }

    /// The position of the last event committed; 0 when there is none.
    func lastPosition() throws -> Int64 {
        let sql = "SELECT max(\(ItemEventsTable.positionColumn)) FROM \(ItemEventsTable.name)"
        return try connection.withStatement(sql) { statement in
            _ = try statement.step()
            return Int64(statement.int(at: 0))
        }
    }

    /// Up to `limit` events of every item with a position after `position` (from the first when
    /// nil), in position order: commit order.
    func events(after position: Int64?, limit: Int) throws -> [PositionedItemEvent] {
        let sql = "SELECT \(ItemEventsTable.positionedColumns) FROM \(ItemEventsTable.name) WHERE \(ItemEventsTable.positionColumn) > ? ORDER BY \(ItemEventsTable.positionColumn) LIMIT ?"
        return try connection.withStatement(sql) { statement in
            try statement.bind(Int(position ?? 0), at: 0)
            try statement.bind(limit, at: 1)
            var events: [PositionedItemEvent] = []
            while try statement.step() {
                let event = try ItemEventsTable.decode(statement)
                events.append(PositionedItemEvent(position: Int64(statement.int(at: ItemEventsTable.positionIndex)), recorded: event))
            }
            return events
        }
    }

    /// The item's events as the raw columns: their names, then each row's fields as text.
    func columns(of itemID: UUID) throws -> (names: [String], rows: [[String]]) {
        try connection.withStatement("SELECT \(ItemEventsTable.selectColumns) FROM \(ItemEventsTable.name) WHERE item_id = ? ORDER BY version") { statement in
            try statement.bind(itemID, at: 0)
            var rows: [[String]] = []
            while try statement.step() {
                rows.append((0..<statement.columnCount).map(statement.fieldText(at:)))
            }
            return ((0..<statement.columnCount).map(statement.columnName(at:)), rows)
        }
    }
}
