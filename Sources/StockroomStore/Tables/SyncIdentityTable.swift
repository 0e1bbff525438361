/// The `sync_identity` table (migration 0013, both engines): this database's own id, one row
/// made by the migration. A hub is known by it (docs/replicas.md).
enum SyncIdentityTable {
    /// The table's name.
    static let name = "sync_identity"
    /// The primary key: the one row is row 1.
    static let key = "singleton"
    /// Every column.
    static let columns = [key, "database_id"]

    static let selectID = "SELECT database_id FROM \(name)"
}
