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
    ///
    /// `reachingServer` makes the transport to a server hub named by its URL (given as
    /// ``HubAddress/serverWithoutTransport(_:)``, or remembered), before anything is written;
    /// without it such a hub is refused.
    package static func run(path: String, hub given: HubAddress?, busyTimeoutMilliseconds: Int32,
                            reachingServer: ((String) throws -> any HubTransport)? = nil,
                            progress: (SyncProgress) -> Void = { _ in },
                            afterHubCommit: ([OutboxIntent]) throws -> Void = { _ in }) throws -> SyncReport {
        // The replica file read once, without changing it, for every refusal that needs it.
        let (remembered, ownID) = try readReplicaFile(path: path)
        guard let address = given ?? remembered.map({ HubAddress(remembered: $0.hubURI) }) else {
            throw SyncError.notAReplica(path: path, attaching: true)
        }
        let hub: any SyncHub
        switch address {
        case .database(let location):
            hub = try DirectHub(location, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        case .server(let transport):
            hub = ServedHub(transport)
        case .serverWithoutTransport(let url):
            guard let reachingServer else { throw SyncError.transportNeeded(hub: url) }
            hub = ServedHub(try reachingServer(url))
        }
        let hubID = try hub.identify()
        if let remembered, remembered.hubID != hubID {
            throw SyncError.otherHub(path: path, attachedTo: remembered.hubURI, attachedID: remembered.hubID,
                                     given: hub.description, givenID: hubID)
        }
        if let ownID = try ownID?.get(), ownID == hubID {
            throw SyncError.replicaIsTheHub(path: path, id: hubID)
        }
        if remembered != nil {
            try hub.refusePush { try pendingCount(path: path) }
        }

        // Every refusal is behind us: from here the replica is written.
        let replicaStore = try InventoryStore(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        guard let replica = replicaStore.database else { throw SyncError.replicaOnServer }
        let lock = try SyncLock(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer { withExtendedLifetime(lock) {} }

        let record = try replicaStore.write { () throws -> ReplicaRecord in
            try register(replica, hubID: hubID, hubAddress: hub.rememberedAddress, path: path)
        }
        // The items a sync killed after its push and before its pull left to re-read.
        let rereads = try replicaStore.read { try ReplicationTables(connection: replica).rereads() }
        try hub.introduce(record, rereading: rereads)
        var summary = SyncReport()
        let pushed = try push(from: replicaStore, replica, to: hub, as: record,
                              afterHubCommit: afterHubCommit, progress: progress)
        summary.pushed = pushed.applied
        SyncFault.pass(.afterPush)
        summary.pulled = try pull(into: replicaStore, replica, from: hub, judged: pushed.items.union(rereads), progress: progress)
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
        try readReplicaFile(path: path).record
    }

    /// The replica row of the file at `path` (as ``rememberedRecord(path:)``) and its own
    /// database id (nil when it has none yet: missing, or older than 0013; a failure when its
    /// row was deleted by hand, which only a sync needs and reports, after its other
    /// refusals), read in one snapshot of one connection without changing the file: each
    /// connection SQLite opens parses the whole schema, the largest part of a sync with
    /// nothing to do.
    private static func readReplicaFile(path: String) throws -> (record: ReplicaRecord?, ownID: Result<UUID, SyncError>?) {
        guard FileManager.default.fileExists(atPath: path),
              let (database, _) = try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 5_000),
              try database.tableExists(SyncIdentityTable.name) else { return (nil, nil) }
        let tables = ReplicationTables(connection: database)
        return try database.readTransaction {
            let record = try database.tableExists(SyncReplicaTable.name) ? try tables.replica() : nil
            do {
                return (record, .success(try tables.databaseID()))
            } catch let error as SyncError {
                return (record, .failure(error))
            }
        }
    }

    /// How many intents wait in the outbox of the replica at `path`, read without changing it.
    private static func pendingCount(path: String) throws -> Int {
        guard let (database, _) = try DatabaseFile.openForReading(path: path, busyTimeoutMilliseconds: 5_000) else { return 0 }
        return try database.readTransaction { try ReplicationTables(connection: database).pendingCount() }
    }

    // MARK: - Registration

    /// Attaches the file to the hub, or brings its registration up to date: a new URI for the
    /// same hub is remembered; a file copied to another machine or path becomes a new replica,
    /// keeping its unpushed intents under its new id.
    private static func register(_ replica: Database, hubID: UUID, hubAddress uri: String, path: String) throws -> ReplicaRecord {
        let tables = ReplicationTables(connection: replica)
        let machine = ReplicaPlace.machineID(), place = DurableFile.resolvedPath(path)
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

    // MARK: - Push and pull

    private static func push(from replicaStore: InventoryStore, _ replica: Database, to hub: any SyncHub, as record: ReplicaRecord,
                             afterHubCommit: ([OutboxIntent]) throws -> Void,
                             progress: (SyncProgress) -> Void) throws -> (applied: Int, items: Set<UUID>) {
        let outbox = OutboxIntents(connection: replica)
        // What waits now is pushed; what is made meanwhile (another process writing) waits for
        // the next sync, so that a busy replica cannot keep one sync pushing for ever.
        let (total, lastWaiting) = try replicaStore.read {
            (try ReplicationTables(connection: replica).pendingCount(), try outbox.lastSequence())
        }
        var pushed = 0, done = 0
        // The items the pushed intents are about: the pull makes them the hub's, whatever the
        // hub judged.
        var items = Set<UUID>()
        while true {
            var batch = try replicaStore.read { try outbox.batch(after: 0, limit: hub.largestBatch, origin: record.replicaID) }
            if let cut = batch.intents.firstIndex(where: { $0.sequence > lastWaiting }) {
                batch.intents.removeSubrange(cut...)
                batch.rows.removeSubrange(cut...)
            }
            guard let last = batch.intents.last else { return (pushed, items) }
            let applied = try hub.apply(batch, from: record)
            SyncFault.pass(.afterHubCommit)
            try afterHubCommit(batch.intents)
            let judged = batch.intents.judgedItems
            try replicaStore.write {
                try outbox.removeThrough(last.sequence)
                try ReplicationTables(connection: replica).addRereads(judged)
            }
            items.formUnion(judged)
            pushed += applied.applied
            done += batch.intents.count
            progress(.pushing(done: done, of: max(total, done)))
        }
    }

    private static func pull(into replicaStore: InventoryStore, _ replica: Database, from hub: any SyncHub, judged: Set<UUID>,
                             progress: (SyncProgress) -> Void) throws -> Int {
        let tables = ReplicationTables(connection: replica)
        let writes = ReplicaWrites(connection: replica)
        guard let pulledBefore = try replicaStore.read({ try tables.replica() })?.pulledPosition else { return 0 }
        return try hub.reading(after: pulledBefore, judged: judged) { changes in
            try replicaStore.write {
                guard let record = try tables.replica() else { return 0 }
                try tables.setCapturing(false)
                let position = changes.position
                // The items the pull wrote: their ids for an incremental pull (whose unpushed
                // intents about them are replayed), only their number for a whole one (which
                // replays every unpushed intent), so that a first pull of a large hub holds one
                // page at a time.
                var touched = Set<UUID>()
                var pulled = 0
                let whole = HubProtocol.isWhole(after: record.pulledPosition, position: position)
                if whole, try writes.holdsNothing() {
                    // A new replica: nothing of its own to replace, delete or clear, so the
                    // hub's rows load as into an empty file, its secondary indexes and its
                    // search index built once at the end (BENCHMARKS.md, "W14 (e)"); the
                    // history triggers record each item's 'added' as they would row by row.
                    try replica.withFullTextIndexSuspended {
                        let indexes = try SecondaryIndexes(of: [ItemsTable.name], on: replica)
                        try indexes.drop(replica.execute)
                        try changes.everyItem { page in
                            for row in page { if let row = row.row { try writes.upsert(row) } }
                            pulled += page.count
                            progress(.pulling(done: pulled))
                        }
                        try indexes.create(replica.execute)
                    }
                } else if whole {
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
                } else {
                    // The items changed on the hub, then those this sync pushed intents about
                    // that the hub wrote nothing to since: they are the hub's now too (a
                    // resolution of a conflict someone resolved first, for one). The replica's
                    // own write of them is undone; what it wanted waits in the conflict's draft.
                    let (changed, pushedItems) = try changes.changedItems()
                    for row in changed + pushedItems {
                        try writes.write(row)
                        touched.insert(row.id)
                    }
                    pulled = changed.count
                    if pulled > 0 { progress(.pulling(done: pulled)) }
                }
                // The replica's own changes made while this sync ran stay on top of the hub's.
                let unpushed = try OutboxIntents(connection: replica).all(origin: record.replicaID)
                for waiting in unpushed where whole || touched.contains(waiting.intent.itemID) {
                    try writes.replay(waiting.intent)
                }
                try ConflictDrafts(connection: replica).mirror(from: try changes.openConflicts(), keeping: unpushed)
                var updated = record
                updated.pulledPosition = position
                updated.lastSync = Timestamp.now()
                try tables.save(updated)
                try tables.clearRereads()
                try tables.setCapturing(true)
                SyncFault.pass(.pullWritten)
                return pulled
            }
        }
    }
}
