import FoundationEssentials
import Glibc
import Inventory
import PostgresCore
import SQLiteCore

/// What one sync did (``StorePool/sync(hub:busyTimeout:)``, `stockroom sync --format json`).
public struct SyncReport: Equatable, Sendable {
    /// Intents the hub applied from this replica (one it had applied already, pushed again
    /// after a lost answer, is not counted).
    public var pushed = 0
    /// Items the pull wrote or deleted on the replica.
    public var pulled = 0
    /// Conflicts open once it ended, on the replica: each a resolving draft.
    public var conflicts = 0
    /// Changes still waiting to be pushed (made while the sync ran).
    public var pending = 0

    /// A report of nothing done.
    public init() {}
}

/// A replica's state, read without reaching its hub (``StorePool/syncStatus()``,
/// `stockroom sync status`).
public struct ReplicaStatus: Equatable, Sendable {
    /// The hub it syncs with: a file's path, or a URI without password.
    public var hub: String
    /// The replica's id: the origin of its changes on the hub.
    public var replica: UUID
    /// Changes waiting to be pushed.
    public var pending: Int
    /// When the last sync completed (ISO-8601 UTC), nil before the first.
    public var lastSync: String?
    /// Open conflicts: resolving drafts.
    public var conflicts: Int
}

/// How far a long sync has come, for a progress line.
package enum SyncProgress: Sendable {
    /// Intents pushed so far, of those waiting when the push began.
    case pushing(done: Int, of: Int)
    /// Items written so far by the pull.
    case pulling(done: Int)
}

/// A replica file syncing with its hub: refusals first (nothing written on either side), then
/// the push (batches, one hub transaction each) and the pull (one replica transaction).
/// docs/replicas.md, "How it is stored", has the design.
package enum ReplicaSync {
    /// Intents per hub transaction.
    package static var batchSize: Int { 500 }

    /// Syncs the replica at `path` with `hub`, or with the hub it remembers when nil.
    ///
    /// `afterHubCommit` is a test seam, and only tests pass it: it runs after the hub committed
    /// each pushed batch and before the replica records that, so that an error it throws is an
    /// answer lost at the worst moment (the hub applied the batch, the replica will push it
    /// again), in process, as `STOCKROOM_SYNC_KILL_AT=after-hub-commit` is for a whole process.
    /// It comes after `progress` so that a trailing closure is still the progress.
    package static func run(path: String, hub given: DatabaseLocation?, busyTimeoutMilliseconds: Int32,
                            progress: (SyncProgress) -> Void = { _ in },
                            afterHubCommit: ([OutboxIntent]) throws -> Void = { _ in }) throws -> SyncReport {
        let remembered = try rememberedRecord(path: path)
        guard let hubLocation = given ?? remembered.map({ DatabaseLocation($0.hubURI) }) else {
            throw SyncError.notAReplica(path: path, attaching: true)
        }
        let hubStore = try openHub(hubLocation, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let hubID = try databaseID(of: hubStore.connection)
        try refuseHubThatIsAReplica(hubStore, hubLocation)
        if let remembered, remembered.hubID != hubID {
            throw SyncError.otherHub(path: path, attachedTo: remembered.hubURI, attachedID: remembered.hubID,
                                     given: hubLocation.description, givenID: hubID)
        }
        if let ownID = try ownDatabaseID(path: path), ownID == hubID {
            throw SyncError.replicaIsTheHub(path: path, id: hubID)
        }

        // Every refusal is behind us: from here the replica is written.
        let replicaStore = try InventoryStore(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        guard let replica = replicaStore.database else { throw SyncError.replicaOnServer }
        let lock = try SyncLock(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer { withExtendedLifetime(lock) {} }

        let record = try replicaStore.write { () throws -> ReplicaRecord in
            try register(replica, hubID: hubID, hubLocation: hubLocation, path: path)
        }
        var summary = SyncReport()
        switch hubStore.connection.concrete {
        case .sqlite(let hub):
            let pushed = try push(from: replicaStore, replica, to: hubStore, hub, origin: record.replicaID,
                                  afterHubCommit: afterHubCommit, progress: progress)
            summary.pushed = pushed.applied
            summary.pulled = try pull(into: replicaStore, replica, from: hubStore, hub, judged: pushed.items, progress: progress)
        case .postgres(let hub):
            let pushed = try push(from: replicaStore, replica, to: hubStore, hub, origin: record.replicaID,
                                  afterHubCommit: afterHubCommit, progress: progress)
            summary.pushed = pushed.applied
            summary.pulled = try pull(into: replicaStore, replica, from: hubStore, hub, judged: pushed.items, progress: progress)
        }
        summary.pending = try ReplicationTables(connection: replica).pendingCount()
        summary.conflicts = try ConflictDrafts(connection: replica).count()
        return summary
    }

    /// The state of the replica at `path`, read only.
    package static func status(path: String) throws -> ReplicaStatus {
        guard try rememberedRecord(path: path) != nil else {
            throw SyncError.notAReplica(path: path, attaching: false)
        }
        let store = try InventoryStore.reading(path: path, contents: .items)
        guard let database = store.database else { throw SyncError.replicaOnServer }
        return try database.readTransaction {
            guard let status = try ReplicaStatus.read(from: database) else { throw SyncError.notAReplica(path: path, attaching: false) }
            return status
        }
    }

    /// The intents the replica at `path` would push, in order, read only: `sync --dry-run`.
    package static func pending(path: String) throws -> [OutboxIntent] {
        guard let record = try rememberedRecord(path: path) else {
            throw SyncError.notAReplica(path: path, attaching: false)
        }
        let store = try InventoryStore.reading(path: path, contents: .items)
        guard let database = store.database else { throw SyncError.replicaOnServer }
        return try database.readTransaction { try OutboxIntents(connection: database).all(origin: record.replicaID) }
    }

    // MARK: - Before anything is written

    /// The replica row of the file at `path`, read without changing it; nil for a missing file,
    /// one older than migration 0013, or one that is not a replica.
    static func rememberedRecord(path: String) throws -> ReplicaRecord? {
        guard FileManager.default.fileExists(atPath: path),
              let (database, _) = try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 5_000) else { return nil }
        let tables = ReplicationTables(connection: database)
        guard try database.tableExists(SyncReplicaTable.name) else { return nil }
        return try database.readTransaction { try tables.replica() }
    }

    /// The file's own database id, nil when it has none yet (missing, or older than 0013).
    private static func ownDatabaseID(path: String) throws -> UUID? {
        guard FileManager.default.fileExists(atPath: path),
              let (database, _) = try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 5_000),
              try database.tableExists(SyncIdentityTable.name) else { return nil }
        return try database.readTransaction { try ReplicationTables(connection: database).databaseID() }
    }

    /// Opens the hub after the refusals that need no write: a missing file, a file on a
    /// network filesystem, a schema older or newer than this replica's.
    private static func openHub(_ location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws -> InventoryStore {
        if case .file(let hubPath) = location {
            guard FileManager.default.fileExists(atPath: hubPath) else {
                throw SyncError.hubMissing(path: hubPath)
            }
            if let type = MountTable.filesystemType(of: hubPath), MountTable.isNetworkFilesystem(type) {
                throw SyncError.hubOnNetworkFilesystem(path: hubPath, filesystem: type)
            }
        }
        let migrations = StoreMigrations(location: location, busyTimeout: .milliseconds(Int64(busyTimeoutMilliseconds)))
        let entries = try migrations.status()
        let known = entries.filter { $0.state != .unknown }.map(\.version).max() ?? 0
        let hubVersion = entries.filter { $0.state == .applied || $0.state == .unknown }.map(\.version).max() ?? 0
        // A new hub (nothing applied yet) is created by opening it; any other must be at this
        // replica's version, which opening the replica brings it to (this binary's).
        if hubVersion != 0, hubVersion != known {
            throw SyncError.schemaVersions(hub: location.description, hubVersion: hubVersion, replicaVersion: known)
        }
        return try InventoryStore(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    private static func databaseID<Connection: StoreConnection>(of connection: Connection) throws -> UUID {
        try ReplicationTables(connection: connection).databaseID()
    }

    private static func refuseHubThatIsAReplica(_ hub: InventoryStore, _ location: DatabaseLocation) throws {
        guard let database = hub.database, try database.tableExists(SyncReplicaTable.name),
              let record = try ReplicationTables(connection: database).replica() else { return }
        throw SyncError.hubIsAReplica(hub: location.description, of: record.hubURI)
    }

    // MARK: - Registration

    /// Attaches the file to the hub, or brings its registration up to date: a new URI for the
    /// same hub is remembered; a file copied to another machine or path becomes a new replica,
    /// keeping its unpushed intents under its new id.
    private static func register(_ replica: Database, hubID: UUID, hubLocation: DatabaseLocation, path: String) throws -> ReplicaRecord {
        let tables = ReplicationTables(connection: replica)
        let machine = ReplicaPlace.machineID(), place = DurableFile.resolvedPath(path)
        let uri = rememberedURI(hubLocation)
        guard var record = try tables.replica() else {
            let record = ReplicaRecord(replicaID: UUID.version7(), hubID: hubID, hubURI: uri, machineID: machine,
                                       path: place, pulledPosition: 0, lastSync: nil)
            try tables.save(record)
            try tables.queueEveryItemAsAdded()
            return record
        }
        var changed = false
        if record.machineID != machine || record.path != place {
            record.replicaID = UUID.version7()
            record.machineID = machine
            record.path = place
            changed = true
        }
        if record.hubURI != uri { record.hubURI = uri; changed = true }
        if changed { try tables.save(record) }
        return record
    }

    /// The hub as the replica remembers it: a file's absolute path, a URI without password.
    private static func rememberedURI(_ location: DatabaseLocation) -> String {
        switch location {
        case .file(let hubPath): DurableFile.resolvedPath(hubPath)
        case .postgres(let uri): ConnectionString.withoutPassword(uri)
        }
    }

    // MARK: - Push and pull

    private static func push<Hub: StoreConnection>(from replicaStore: InventoryStore, _ replica: Database,
                                                   to hubStore: InventoryStore, _ hub: Hub, origin: UUID,
                                                   afterHubCommit: ([OutboxIntent]) throws -> Void,
                                                   progress: (SyncProgress) -> Void) throws -> (applied: Int, items: Set<UUID>) {
        let outbox = OutboxIntents(connection: replica)
        // What waits now is pushed; what is made meanwhile (another process writing) waits for
        // the next sync, so that a busy replica cannot keep one sync pushing for ever.
        let (total, lastWaiting) = try replicaStore.read {
            (try ReplicationTables(connection: replica).pendingCount(), try outbox.lastSequence())
        }
        var pushed = 0, done = 0
        // The items the pushed intents are about (and the id a resolution may bring an item back
        // under): the pull makes them the hub's, whatever the hub judged.
        var items = Set<UUID>()
        while true {
            let batch = try replicaStore.read { try outbox.intents(after: 0, limit: batchSize, origin: origin) }
                .filter { $0.sequence <= lastWaiting }
            guard let last = batch.last else { return (pushed, items) }
            let applied = try hubStore.write { try HubApplication(connection: hub).apply(batch) }
            SyncFault.pass(.afterHubCommit)
            try afterHubCommit(batch)
            try replicaStore.write { try outbox.removeThrough(last.sequence) }
            for waiting in batch {
                items.insert(waiting.intent.itemID)
                if case .resolve = waiting.intent.change { items.insert(waiting.intent.id) }
            }
            pushed += applied.applied
            done += batch.count
            progress(.pushing(done: done, of: max(total, done)))
        }
    }

    private static func pull<Hub: StoreConnection>(into replicaStore: InventoryStore, _ replica: Database,
                                                   from hubStore: InventoryStore, _ hub: Hub, judged: Set<UUID>,
                                                   progress: (SyncProgress) -> Void) throws -> Int {
        let tables = ReplicationTables(connection: replica)
        let writes = ReplicaWrites(connection: replica)
        let changes = HubChanges(connection: hub)
        return try hubStore.read {
            try replicaStore.write {
                guard let record = try tables.replica() else { return 0 }
                try tables.setCapturing(false)
                let position = try changes.lastPosition()
                // The items the pull wrote: their ids for an incremental pull (whose unpushed
                // intents about them are replayed), only their number for a whole one (which
                // replays every unpushed intent), so that a first pull of a large hub holds one
                // page at a time.
                var touched = Set<UUID>()
                var pulled = 0
                // A whole pull the first time, and when the hub's history went backwards (the
                // hub was restored from a backup): its positions no longer mean what they did.
                let whole = record.pulledPosition == 0 || position < record.pulledPosition
                if whole {
                    try replica.execute("CREATE TEMP TABLE IF NOT EXISTS sync_pulled_ids (id TEXT PRIMARY KEY) WITHOUT ROWID")
                    try replica.execute("DELETE FROM temp.sync_pulled_ids")
                    try changes.everyItem { page in
                        for row in page {
                            try writes.write(row)
                            try replica.withStatement("INSERT INTO temp.sync_pulled_ids (id) VALUES (?)") { statement in
                                try statement.bind(row.id, at: 0)
                                try statement.run()
                            }
                        }
                        pulled += page.count
                        progress(.pulling(done: pulled))
                    }
                    try writes.deleteItemsNotPulled()
                    try replica.execute("DROP TABLE temp.sync_pulled_ids")
                } else if position > record.pulledPosition {
                    for row in try changes.changedItems(after: record.pulledPosition, through: position) {
                        try writes.write(row)
                        touched.insert(row.id)
                    }
                    pulled = touched.count
                    progress(.pulling(done: pulled))
                }
                // The items this sync pushed intents about are the hub's now, even where the hub
                // wrote nothing after the pulled position (a resolution of a conflict someone
                // resolved first, for one): the replica's own write of them is undone, and what
                // it wanted waits in the conflict's draft. A whole pull did this already.
                if !whole {
                    for pulled in try changes.items(judged.subtracting(touched)) {
                        try writes.write(pulled)
                        touched.insert(pulled.id)
                    }
                }
                // The replica's own changes made while this sync ran stay on top of the hub's.
                let unpushed = try OutboxIntents(connection: replica).all(origin: record.replicaID)
                for waiting in unpushed where whole || touched.contains(waiting.intent.itemID) {
                    try writes.replay(waiting.intent)
                }
                try ConflictDrafts(connection: replica).mirror(from: ConflictDrafts(connection: hub), keeping: unpushed)
                var updated = record
                updated.pulledPosition = position
                updated.lastSync = Timestamp.now()
                try tables.save(updated)
                try tables.setCapturing(true)
                SyncFault.pass(.pullWritten)
                return pulled
            }
        }
    }
}
