import Inventory

extension ReplicaStatus {
    /// The state of the replica `connection` is on, in the caller's transaction; nil when it is
    /// not a replica (no `sync_replica` row: a hub, a standalone file, a PostgreSQL database).
    /// A few one-row reads and two counts: cheap enough for every list page a replica's own
    /// `stockroom serve` answers.
    static func read<Connection: StoreConnection>(from connection: Connection) throws -> ReplicaStatus? {
        let tables = ReplicationTables(connection: connection)
        guard connection.dialect == .sqlite, try connection.tableExists(SyncReplicaTable.name),
              let record = try tables.replica() else { return nil }
        return ReplicaStatus(hub: record.hubURI, replica: record.replicaID, pending: try tables.pendingCount(),
                             lastSync: record.lastSync, conflicts: try DraftRecords(connection: connection).conflictCount())
    }
}

extension InventoryStore {
    /// This database's state as a replica (``StorePool/syncStatus()``'s), read on this store's
    /// own connection; nil when it is not a replica.
    package func replicaStatus() throws -> ReplicaStatus? {
        try ReplicaStatus.read(from: connection)
    }
}
