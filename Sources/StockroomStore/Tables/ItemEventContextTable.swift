import FoundationEssentials

/// The `item_event_context` table (migration 0011, both engines): what a writer declares about
/// its next write to an item (``EventDetails``), for the history triggers to copy into the
/// event they append. A writer inserts the row in its own transaction just before the write
/// and deletes it right after (``StoreConnection/withEventContext(itemID:adjustedBy:origin:intentID:_:)``),
/// so the table is empty outside such a transaction and no other connection ever sees a row.
enum ItemEventContextTable {
    /// The table's name.
    static let name = "item_event_context"
    /// The primary key: one context per item.
    static let key = "item_id"

    /// `item_id` then ``EventDetailsCodec``'s columns, with each group's bind position.
    struct Layout {
        let columns: ColumnLayout
        let itemID: Int, details: Int

        init() {
            var columns = ColumnLayout()
            itemID = columns.add(key)
            details = columns.add(EventDetailsCodec.columns)
            self.columns = columns
        }
    }

    static let layout = Layout()

    /// Declares the context of the item bound at ``Layout/itemID``.
    static let insertSQL = "INSERT INTO \(name) (\(layout.columns.list)) VALUES (\(layout.columns.placeholders))"
    /// Removes the context of the item bound first.
    static let deleteSQL = "DELETE FROM \(name) WHERE \(key) = ?1"
}
