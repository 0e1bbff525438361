import FoundationEssentials
import Inventory
import PostgresCore
import StockroomMigrations

/// The hub as one sync reaches it: a database opened here (``DirectHub``: a SQLite file or
/// PostgreSQL), or a `stockroom serve` over HTTP (``ServedHub``). ``ReplicaSync`` drives
/// either the same way; whichever it is, the hub applies intents with ``HubApplication`` and
/// answers pulls with ``HubChanges``, so that the rules have one implementation.
protocol SyncHub {
    /// The hub as the replica remembers it: a file's absolute path, a URI without password,
    /// a server's URL.
    var rememberedAddress: String { get }
    /// The hub as messages name it.
    var description: String { get }

    /// The hub's database id, after the refusals that need no write: a hub at another schema
    /// version, a hub that is itself a replica.
    func identify() throws -> UUID

    /// Refuses a push before anything is written, when the hub takes none (a read-only
    /// server) and changes wait (`waiting`, read only when asked: it opens the replica).
    func refusePush(waiting: () throws -> Int) throws

    /// The largest batch the hub takes.
    var largestBatch: Int { get }

    /// Tells the hub where `replica` registered, before its first push can: a served hub binds
    /// the replica's id to that place (``HubOrigins``), so that no other replica can push under
    /// it, even one that pushed nothing yet; and asks for the items a killed sync left to
    /// re-read (`rereading`), which a direct hub reads at the pull.
    func introduce(_ replica: ReplicaRecord, rereading: Set<UUID>) throws

    /// Applies one batch of `replica`'s in one hub transaction, skipping intents it applied
    /// before.
    func apply(_ batch: OutboxBatch, from replica: ReplicaRecord) throws -> AppliedBatch

    /// Hands `body` what the hub holds after `position`, in one reading of the hub where the
    /// hub can (a direct hub: one read transaction), the items pushed by this sync
    /// (`judged`) among it.
    func reading<T>(after position: Int, judged: Set<UUID>, _ body: (any HubPullSource) throws -> T) throws -> T
}

/// What a pull reads from its hub (``SyncHub/reading(after:judged:_:)``).
protocol HubPullSource {
    /// The hub's last history position: the replica has pulled through it once it is written.
    var position: Int { get }
    /// Every item, a page at a time in id order: a whole pull.
    func everyItem(_ body: ([PulledItem]) throws -> Void) throws
    /// The items changed after the position given, through ``position``, then the judged
    /// items not among them, as the hub holds them now.
    func changedItems() throws -> (changed: [PulledItem], judged: [PulledItem])
    /// The hub's open conflicts: its resolving drafts.
    func openConflicts() throws -> [IdentifiedDraft]
}

extension SyncHub {
    var largestBatch: Int { ReplicaSync.batchSize }
}

/// A hub opened here: a SQLite file or a PostgreSQL database, through an ``InventoryStore``.
struct DirectHub: SyncHub {
    let store: InventoryStore
    let location: DatabaseLocation

    /// Opens the hub after the refusals that need no write: a missing file, a file on a
    /// network filesystem, a schema older or newer than this replica's.
    init(_ location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws {
        if case .file(let hubPath) = location {
            guard FileManager.default.fileExists(atPath: hubPath) else {
                throw SyncError.hubMissing(path: hubPath)
            }
            if let type = MountTable.filesystemType(of: hubPath), MountTable.isNetworkFilesystem(type) {
                throw SyncError.hubOnNetworkFilesystem(path: hubPath, filesystem: type)
            }
        }
        // The version is checked on the connection the store then uses, before anything is
        // migrated: each connection costs a schema parse, or a server backend's start-up.
        switch location {
        case .file(let hubPath):
            store = try InventoryStore(path: hubPath, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
                try Self.refuseOtherVersion($0, of: location)
            }
        case .postgres(let uri):
            store = try InventoryStore(postgresURI: uri, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
                try Self.refuseOtherVersion($0, of: location)
            }
        }
        self.location = location
    }

    /// A new hub (nothing applied yet) is created by opening it; any other must be at this
    /// replica's version, which opening the replica brings it to (this binary's).
    private static func refuseOtherVersion(_ entries: [MigrationStatusEntry], of location: DatabaseLocation) throws {
        let known = entries.filter { $0.state != .unknown }.map(\.version).max() ?? 0
        let hubVersion = entries.filter { $0.state == .applied || $0.state == .unknown }.map(\.version).max() ?? 0
        if hubVersion != 0, hubVersion != known {
            throw SyncError.schemaVersions(hub: location.description, hubVersion: hubVersion, replicaVersion: known)
        }
    }

    var rememberedAddress: String {
        switch location {
        case .file(let hubPath): DurableFile.resolvedPath(hubPath)
        case .postgres(let uri): ConnectionString.withoutPassword(uri)
        }
    }

    var description: String { location.description }

    func identify() throws -> UUID {
        if let database = store.database, try database.tableExists(SyncReplicaTable.name),
           let record = try ReplicationTables(connection: database).replica() {
            throw SyncError.hubIsAReplica(hub: location.description, of: record.hubURI)
        }
        switch store.connection.concrete {
        case .sqlite(let hub): return try ReplicationTables(connection: hub).databaseID()
        case .postgres(let hub): return try ReplicationTables(connection: hub).databaseID()
        }
    }

    func refusePush(waiting: () throws -> Int) throws {}

    func introduce(_ replica: ReplicaRecord, rereading: Set<UUID>) throws {}

    func apply(_ batch: OutboxBatch, from replica: ReplicaRecord) throws -> AppliedBatch {
        try store.write {
            switch store.connection.concrete {
            case .sqlite(let hub): try HubApplication(connection: hub).apply(batch.intents)
            case .postgres(let hub): try HubApplication(connection: hub).apply(batch.intents)
            }
        }
    }

    func reading<T>(after position: Int, judged: Set<UUID>, _ body: (any HubPullSource) throws -> T) throws -> T {
        func source<Connection: StoreConnection>(_ connection: Connection) throws -> any HubPullSource {
            let changes = HubChanges(connection: connection)
            return DirectPull(hubChanges: changes, after: position, judged: judged, position: try changes.lastPosition())
        }
        return try store.read {
            switch store.connection.concrete {
            case .sqlite(let hub): try body(try source(hub))
            case .postgres(let hub): try body(try source(hub))
            }
        }
    }
}

/// A direct hub's pull source: ``HubChanges`` in the hub's read transaction.
private struct DirectPull<Connection: StoreConnection>: HubPullSource {
    let hubChanges: HubChanges<Connection>
    let after: Int
    let judged: Set<UUID>
    let position: Int

    func everyItem(_ body: ([PulledItem]) throws -> Void) throws { try hubChanges.everyItem(body) }

    func changedItems() throws -> (changed: [PulledItem], judged: [PulledItem]) {
        try hubChanges.pull(after: after, through: position, judged: judged)
    }

    func openConflicts() throws -> [IdentifiedDraft] {
        try DraftRecords(connection: hubChanges.connection).openConflicts()
    }
}

/// The hub a sync is asked to reach.
package enum HubAddress {
    /// A SQLite file or a PostgreSQL database, opened here.
    case database(DatabaseLocation)
    /// A `stockroom serve`, through a transport.
    case server(any HubTransport)
    /// A server's URL remembered by the replica, with no transport to reach it.
    case serverWithoutTransport(String)

    /// The hub a replica remembers (`sync_replica.hub_uri`).
    init(remembered uri: String) {
        self = HubAddress.isServerURL(uri) ? .serverWithoutTransport(uri) : .database(DatabaseLocation(uri))
    }

    /// Whether `text` names a server hub: an `http://` or `https://` URL.
    package static func isServerURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
