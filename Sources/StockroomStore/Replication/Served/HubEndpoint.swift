import FoundationEssentials
import Inventory
import SQLiteCore
import StockroomMigrations

/// A `stockroom serve` answering the sync protocol (docs/replicas.md, "The sync protocol"):
/// the server's routes hand it the request's body and a store, and send back what it returns.
/// It applies intents with ``HubApplication`` and answers pulls with ``HubChanges``, as a
/// direct hub does: the rules have one implementation, whichever way a replica comes.
package struct HubEndpoint: Sendable {
    /// The server refuses every push (`serve --read-only`); pulls are answered.
    package let readOnly: Bool
    /// The served database's schema version: this program's latest for its engine, which
    /// opening the database brought it to.
    private let schemaVersion: Int

    /// The largest request body the server reads.
    package static var largestBody: Int { HubProtocol.largestBody }

    /// An endpoint for the database at `location` (nil: SQLite).
    package init(readOnly: Bool, location: DatabaseLocation?) {
        self.readOnly = readOnly
        schemaVersion = MigrationSet.embedded(location?.engine ?? .sqlite).latestVersion
    }

    /// `GET /api/sync`.
    package func info(in store: InventoryStore) throws -> [UInt8] {
        var replicaOf: String?
        if let database = store.database, try database.tableExists(SyncReplicaTable.name) {
            replicaOf = try ReplicationTables(connection: database).replica()?.hubURI
        }
        let id: UUID = try store.read {
            switch store.connection.concrete {
            case .sqlite(let hub): try ReplicationTables(connection: hub).databaseID()
            case .postgres(let hub): try ReplicationTables(connection: hub).databaseID()
            }
        }
        return HubProtocol.encode(HubProtocol.Info(
            hub: id.lowercasedString, protocolVersion: HubProtocol.version,
            schemaVersion: schemaVersion,
            largestBatch: HubProtocol.largestBatch, readOnly: readOnly, replicaOf: replicaOf))
    }

    /// A pushed batch, read and checked before any transaction: a malformed, cut-short or
    /// oversized batch, or one from another schema version, is refused with nothing applied.
    package struct ParsedBatch: Sendable {
        let origin: UUID
        let machine: String
        let path: String
        let intents: [OutboxIntent]
        let reread: Set<UUID>
    }

    /// Reads the body of `POST /api/sync/batches`.
    package func parseBatch(_ body: [UInt8]) throws -> ParsedBatch {
        let batch: HubProtocol.Batch
        do {
            batch = try HubProtocol.decode(HubProtocol.Batch.self, from: body)
        } catch {
            throw HubRefusal(status: 400, detail: "the batch is not a sync batch document (cut short, or not JSON of the protocol's shape): \(error)")
        }
        let ours = schemaVersion
        guard batch.schemaVersion == ours else {
            throw HubRefusal(status: 409, detail: "the replica is at schema version \(batch.schemaVersion) and this hub at \(ours): migrate the older side up (`stockroom migrate up`)")
        }
        guard let origin = UUID(uuidString: batch.replica), origin.lowercasedString == batch.replica else {
            throw HubRefusal(status: 400, detail: "replica '\(batch.replica)' is not a lowercase UUID")
        }
        guard !batch.machine.isEmpty, !batch.path.isEmpty else {
            throw HubRefusal(status: 400, detail: "the batch does not say where its replica registered (machine and path)")
        }
        guard batch.intents.count <= HubProtocol.largestBatch else {
            throw HubRefusal(status: 413, detail: "the batch has \(batch.intents.count) intents; this hub takes at most \(HubProtocol.largestBatch) per batch (GET /api/sync says so)")
        }
        guard batch.columns == OutboxIntents<Database>.rowColumns else {
            throw HubRefusal(status: 400, detail: "the batch's columns are not this hub's: [\(batch.columns.joined(separator: ", "))]")
        }
        if let short = batch.intents.firstIndex(where: { $0.count != batch.columns.count }) {
            throw HubRefusal(status: 400, detail: "intent \(short + 1) has \(batch.intents[short].count) values for \(batch.columns.count) columns")
        }
        var reread = Set<UUID>()
        for text in batch.reread ?? [] {
            guard let id = UUID(uuidString: text), id.lowercasedString == text else {
                throw HubRefusal(status: 400, detail: "reread '\(text)' is not a lowercase UUID")
            }
            reread.insert(id)
        }
        do {
            return ParsedBatch(origin: origin, machine: batch.machine, path: batch.path,
                               intents: try OutboxIntents<Database>.decode(rows: batch.intents, origin: origin), reread: reread)
        } catch {
            throw HubRefusal(status: 422, detail: "an intent does not decode: \(error)")
        }
    }

    /// Applies a parsed batch in one transaction of `store`, and answers with how the hub
    /// holds its items after it.
    package func apply(_ batch: ParsedBatch, in store: InventoryStore) throws -> [UInt8] {
        guard !readOnly else {
            throw HubRefusal(status: 405, detail: "this hub is read-only (serve --read-only): replicas may pull but not push")
        }
        func apply<Connection: StoreConnection>(_ hub: Connection) throws -> HubProtocol.Applied {
            try HubOrigins(connection: hub).bind(batch.origin, machine: batch.machine, path: batch.path)
            let outcome = try HubApplication(connection: hub).apply(batch.intents)
            // The rows a pull would not bring: of the items the batch judged without writing
            // (a conflict, a refused resolution), and those asked to be re-read. What it wrote
            // comes with the pull's changes.
            let items = try HubChanges(connection: hub).items(batch.intents.judgedItems.subtracting(outcome.written).union(batch.reread))
            return HubProtocol.Applied(applied: outcome.applied, alreadyApplied: outcome.alreadyApplied,
                                       conflictsOpened: outcome.conflictsOpened, items: items.map(HubProtocol.row))
        }
        let answer = try store.write {
            switch store.connection.concrete {
            case .sqlite(let hub): try apply(hub)
            case .postgres(let hub): try apply(hub)
            }
        }
        // The answer is not sent yet: a server killed here has applied the batch, and the
        // replica, with no answer, pushes it again (it applies once). An empty batch (a
        // replica introducing itself) is not the moment the fault means.
        if !batch.intents.isEmpty { SyncFault.pass(.afterHubCommit) }
        return HubProtocol.encode(answer)
    }

    /// `GET /api/sync/changes?after=P`.
    package func changes(after: Int, in store: InventoryStore) throws -> [UInt8] {
        func read<Connection: StoreConnection>(_ hub: Connection) throws -> HubProtocol.Changes {
            let changes = HubChanges(connection: hub)
            let position = try changes.lastPosition()
            let whole = HubProtocol.isWhole(after: after, position: position)
            let items = whole ? [] : try changes.changedItems(after: after, through: position)
            let conflicts = try DraftRecords(connection: hub).openConflicts()
            return HubProtocol.Changes(position: position, whole: whole, items: items.map(HubProtocol.row),
                                       conflicts: conflicts.map(HubProtocol.row))
        }
        let answer = try store.read {
            switch store.connection.concrete {
            case .sqlite(let hub): try read(hub)
            case .postgres(let hub): try read(hub)
            }
        }
        return HubProtocol.encode(answer)
    }

    /// `GET /api/sync/items?after=ID`: the next page of a whole pull.
    package func page(after: String, in store: InventoryStore) throws -> [UInt8] {
        func read<Connection: StoreConnection>(_ hub: Connection) throws -> [PulledItem] {
            try HubChanges(connection: hub).page(after: after)
        }
        let items = try store.read {
            switch store.connection.concrete {
            case .sqlite(let hub): try read(hub)
            case .postgres(let hub): try read(hub)
            }
        }
        let next = items.count == HubProtocol.pageSize ? items.last?.id.lowercasedString : nil
        return HubProtocol.encode(HubProtocol.Page(items: items.map(HubProtocol.row), next: next))
    }
}

/// A sync request the hub refuses, with the HTTP status it answers with and the words.
package struct HubRefusal: Error, Sendable, CustomStringConvertible {
    package let status: Int
    package let detail: String

    package init(status: Int, detail: String) {
        self.status = status
        self.detail = detail
    }

    package var description: String { detail }
}

/// Where each replica that pushed through a server registered (`sync_origins`, migration 0014):
/// its id is bound to that place at its first batch, and a batch naming it from anywhere else
/// is refused. A copy of a replica file registers anew, under its own id, before it pushes
/// (ReplicaSync's registration), so only a replica pretending to be another meets the refusal.
struct HubOrigins<Connection: StoreConnection> {
    let connection: Connection

    /// Binds `origin` to `machine` and `path`, or checks the binding it has.
    func bind(_ origin: UUID, machine: String, path: String) throws {
        let bound = try connection.withStatement(SyncOriginsTable.select) { statement -> (machine: String, path: String)? in
            try statement.bind(origin, at: 0)
            return try statement.step() ? (statement.text(at: 0), statement.text(at: 1)) : nil
        }
        if let bound {
            guard bound.machine == machine, bound.path == path else {
                throw HubRefusal(status: 409, detail: "replica \(origin.lowercasedString) registered from machine \(bound.machine) at \(bound.path), and this batch comes from machine \(machine) at \(path): a replica cannot push under another's origin (a copied file registers anew at its next sync)")
            }
            return
        }
        try connection.withStatement(SyncOriginsTable.insert) { statement in
            try statement.bind(origin, at: 0)
            try statement.bind(machine, at: 1)
            try statement.bind(path, at: 2)
            try statement.bind(Timestamp.now(), at: 3)
            try statement.run()
        }
    }
}
