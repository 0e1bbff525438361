/// The `sync_replica` table (migration 0013, SQLite): on a replica its one row, what it
/// remembers of itself and its hub (``ReplicaRecord``); none on any other database.
enum SyncReplicaTable {
    /// The table's name.
    static let name = "sync_replica"
    /// The primary key: the one row is row 1.
    static let key = "singleton"
    /// ``ReplicaRecord``'s columns, in its order, then whether changes are captured.
    static let recordColumns = ["replica_id", "hub_id", "hub_uri", "machine_id", "path", "pulled_position", "last_sync"]
    /// Every column.
    static let columns = [key] + recordColumns + [capturingColumn]
    /// 1 while changes become intents, 0 inside a pull or a resolution.
    static let capturingColumn = "capturing"

    static let selectRecord = "SELECT \(recordColumns.joined(separator: ", ")) FROM \(name)"
    static let saveRecord = """
        INSERT INTO \(name) (\(key), \(recordColumns.joined(separator: ", ")), \(capturingColumn))
        VALUES (1, \(recordColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")), 1)
        ON CONFLICT (\(key)) DO UPDATE SET \(recordColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    static func setCapturing(_ capturing: Bool) -> String {
        "UPDATE \(name) SET \(capturingColumn) = \(capturing ? 1 : 0)"
    }
}
