/// The `sync_origins` table (migration 0014, both engines): on a hub, where each replica that
/// pushed through `stockroom serve` registered, so that a batch naming a replica registered
/// elsewhere is refused (``HubOrigins``).
enum SyncOriginsTable {
    /// The table's name.
    static let name = "sync_origins"
    /// The primary key: the replica's id.
    static let key = "replica_id"
    /// Every column.
    static let columns = [key, "machine_id", "path", "first_seen"]

    static let select = "SELECT machine_id, path FROM \(name) WHERE \(key) = ?"
    static let insert = "INSERT INTO \(name) (\(columns.joined(separator: ", "))) VALUES (?, ?, ?, ?)"
}
