import FoundationEssentials
import Glibc
import Inventory
import TextFormats

/// What a replica file remembers of itself and its hub: the one row of `sync_replica`
/// (migration 0013). A database without the row is not a replica.
package struct ReplicaRecord: Equatable, Sendable {
    /// The replica's id: the origin of its intents on the hub.
    package var replicaID: UUID
    /// The hub's database id (its `sync_identity`).
    package var hubID: UUID
    /// How the hub was last reached, without a password.
    package var hubURI: String
    /// The machine the replica was registered on.
    package var machineID: String
    /// The path it was registered at.
    package var path: String
    /// The hub's history position this replica has pulled up to.
    package var pulledPosition: Int
    /// When the last sync completed, nil before the first.
    package var lastSync: String?
}

/// The replication tables of one database, on either engine: its own id, its replica row, and
/// its outbox's size. Inside the caller's transaction.
struct ReplicationTables<Connection: StoreConnection> {
    let connection: Connection

    /// True when the schema has the replication tables (migration 0013).
    func exist() throws -> Bool {
        try connection.tableExists(SyncIdentityTable.name)
    }

    /// This database's own id.
    func databaseID() throws -> UUID {
        let id = try connection.withStatement(SyncIdentityTable.selectID) { statement in
            try statement.step() ? statement.uuid(at: 0) : nil
        }
        guard let id else { throw SyncError.missingIdentity }
        return id
    }

    /// The replica row, or nil when this database is not a replica (PostgreSQL never is).
    func replica() throws -> ReplicaRecord? {
        guard connection.dialect == .sqlite else { return nil }
        return try connection.withStatement(SyncReplicaTable.selectRecord) { statement in
            guard try statement.step(), let replica = statement.uuid(at: 0), let hub = statement.uuid(at: 1) else { return nil }
            return ReplicaRecord(replicaID: replica, hubID: hub, hubURI: statement.text(at: 2),
                                 machineID: statement.text(at: 3), path: statement.text(at: 4),
                                 pulledPosition: statement.int(at: 5), lastSync: statement.optionalText(at: 6))
        }
    }

    /// Writes the replica row (a registration, or a new URI for the same hub).
    func save(_ record: ReplicaRecord) throws {
        try connection.withStatement(SyncReplicaTable.saveRecord) { statement in
            try statement.bind(record.replicaID, at: 0)
            try statement.bind(record.hubID, at: 1)
            try statement.bind(record.hubURI, at: 2)
            try statement.bind(record.machineID, at: 3)
            try statement.bind(record.path, at: 4)
            try statement.bind(record.pulledPosition, at: 5)
            if let lastSync = record.lastSync { try statement.bind(lastSync, at: 6) } else { try statement.bindNull(at: 6) }
            try statement.run()
        }
    }

    /// Turns the capture of changes into intents off (a pull, a resolution) or back on, for
    /// the rest of the caller's transaction.
    func setCapturing(_ capturing: Bool) throws {
        try connection.execute(SyncReplicaTable.setCapturing(capturing))
    }

    /// The items to re-read at the next pull: those of intents the hub applied whose pull has
    /// not committed (a sync killed between the two).
    func rereads() throws -> Set<UUID> {
        try connection.withStatement(SyncRereadsTable.selectAll) { statement in
            var ids = Set<UUID>()
            while try statement.step() { if let id = statement.uuid(at: 0) { ids.insert(id) } }
            return ids
        }
    }

    /// Remembers `ids` to re-read, in the transaction that empties the outbox of their intents.
    func addRereads(_ ids: Set<UUID>) throws {
        for id in ids {
            try connection.withStatement(SyncRereadsTable.insert) { statement in
                try statement.bind(id, at: 0)
                try statement.run()
            }
        }
    }

    /// Forgets every item to re-read: the pull that read them commits.
    func clearRereads() throws {
        try connection.execute(SyncRereadsTable.deleteAll)
    }

    /// How many intents wait to be pushed.
    func pendingCount() throws -> Int {
        guard connection.dialect == .sqlite, try connection.tableExists(SyncIntentsTable.name) else { return 0 }
        return try connection.rowCount(of: SyncIntentsTable.name)
    }

    /// Queues every item the file holds as an addition: a standalone file that becomes a
    /// replica sends its inventory up.
    func queueEveryItemAsAdded() throws {
        let fields = ItemCodec.fieldColumns(prefix: "")
        try connection.execute("""
            INSERT INTO \(SyncIntentsTable.name) (id, item_id, made_at, kind, \(SyncIntentsTable.afterColumns.joined(separator: ", ")))
            SELECT \(ReplicationSQL.newID), \(ItemsTable.key), \(ReplicationSQL.now), 'add', \(fields.joined(separator: ", "))
            FROM \(ItemsTable.name) ORDER BY \(ItemsTable.key)
            """)
    }
}

/// Where this process runs, as a replica registers it: the machine's id and the file's real
/// path (`DurableFile.resolvedPath`). A replica file copied to another machine or path is a new replica there.
enum ReplicaPlace {
    /// The machine's id: `STOCKROOM_MACHINE_ID` when set (what the tests use to play a second
    /// device), else systemd's /etc/machine-id, else the host name.
    static func machineID() -> String {
        if let given = getenv("STOCKROOM_MACHINE_ID"), given.pointee != 0 { return String(cString: given) }
        if let text = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
            let trimmed = String(text.trimmed(\.isWhitespace))
            if !trimmed.isEmpty { return trimmed }
        }
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
