/// The `sync_intents` table (migration 0013, SQLite): a replica's outbox, one tagged row per
/// intent in the replica's order, filled by the triggers on `items` and by a person's
/// resolutions (``OutboxIntents``).
enum SyncIntentsTable {
    /// The table's name.
    static let name = "sync_intents"
    /// The primary key: the replica's order.
    static let key = "sequence"
    /// The intent's facts, before the two item sides.
    static let factColumns = ["id", "item_id", "made_at", "kind", "adjust_by", "last_pulled_position", "conflict_id", "choice"]
    /// The replica's copy of the item before the change: its field columns, prefixed.
    static let copyColumns = ItemCodec.fieldColumns(prefix: "copy_")
    /// The item after the change.
    static let afterColumns = ItemCodec.fieldColumns(prefix: "to_")
    /// Every column.
    static let columns = [key] + factColumns + copyColumns + afterColumns

    static let count = "SELECT count(*) FROM \(name)"
    static let lastSequence = "SELECT coalesce(max(\(key)), 0) FROM \(name)"
    static let deleteThrough = "DELETE FROM \(name) WHERE \(key) <= ?"
}
