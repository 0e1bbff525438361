/// The `sync_rereads` table (migration 0014, SQLite): on a replica, the items of the intents
/// its hub applied, until the pull that makes them the hub's commits (``ReplicaSync``).
enum SyncRereadsTable {
    /// The table's name.
    static let name = "sync_rereads"
    /// The primary key: the item's id.
    static let key = "item_id"
    /// Every column.
    static let columns = [key]

    static let insert = "INSERT INTO \(name) (\(key)) VALUES (?) ON CONFLICT (\(key)) DO NOTHING"
    static let selectAll = "SELECT \(key) FROM \(name)"
    static let deleteAll = "DELETE FROM \(name)"
}
