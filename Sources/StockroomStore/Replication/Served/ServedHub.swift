import FoundationEssentials
import Inventory
import SQLiteCore

/// A `stockroom serve` as a replica's hub, reached through a ``HubTransport``: the protocol's
/// client side (docs/replicas.md, "The sync protocol"). Every answer that is not what the
/// protocol promises becomes a ``SyncError`` naming the server and what it said.
final class ServedHub: SyncHub {
    let transport: any HubTransport
    /// What `GET /api/sync` said, once ``identify()`` asked.
    private var info: HubProtocol.Info?
    /// How the hub held the items of each batch pushed by this sync, after it: what a pull
    /// reads of a pushed item the hub wrote nothing to since the replica's position.
    private var judgedRows: [UUID: PulledItem] = [:]

    init(_ transport: any HubTransport) {
        self.transport = transport
    }

    var rememberedAddress: String { transport.url }
    var description: String { transport.url }
    var largestBatch: Int { min(info?.largestBatch ?? HubProtocol.largestBatch, ReplicaSync.batchSize) }

    func identify() throws -> UUID {
        let info = try HubProtocol.decoded(HubProtocol.Info.self, from: try send(HubRequest(method: "GET", path: "/api/sync")), hub: description)
        guard info.protocolVersion == HubProtocol.version else {
            throw SyncError.protocolVersions(hub: description, hubVersion: info.protocolVersion, replicaVersion: HubProtocol.version)
        }
        guard info.schemaVersion == HubProtocol.schemaVersion else {
            throw SyncError.schemaVersions(hub: description, hubVersion: info.schemaVersion, replicaVersion: HubProtocol.schemaVersion)
        }
        if let replicaOf = info.replicaOf { throw SyncError.hubIsAReplica(hub: description, of: replicaOf) }
        guard let id = UUID(uuidString: info.hub) else {
            throw SyncError.hubAnswer(hub: description, reason: "its id '\(info.hub)' is not a UUID")
        }
        self.info = info
        return id
    }

    func refusePush(waiting: () throws -> Int) throws {
        guard info?.readOnly == true else { return }
        let count = try waiting()
        if count > 0 { throw SyncError.hubReadOnly(hub: description, waiting: count) }
    }

    /// An empty batch: it binds the replica's id on the hub. A read-only server takes no batch,
    /// and no push either: nothing could be pushed under the id there.
    func introduce(_ replica: ReplicaRecord, rereading: Set<UUID>) throws {
        guard info?.readOnly != true else { return }
        _ = try apply(OutboxBatch(rows: [], intents: []), from: replica, rereading: rereading)
    }

    func apply(_ batch: OutboxBatch, from replica: ReplicaRecord) throws -> AppliedBatch {
        try apply(batch, from: replica, rereading: [])
    }

    private func apply(_ batch: OutboxBatch, from replica: ReplicaRecord, rereading: Set<UUID>) throws -> AppliedBatch {
        let document = HubProtocol.Batch(replica: replica.replicaID.lowercasedString, machine: replica.machineID, path: replica.path,
                                         schemaVersion: HubProtocol.schemaVersion,
                                         columns: OutboxIntents<Database>.rowColumns, intents: batch.rows,
                                         reread: rereading.isEmpty ? nil : rereading.map(\.lowercasedString).sorted())
        let body = try send(HubRequest(method: "POST", path: "/api/sync/batches", body: HubProtocol.encode(document)), pushing: true)
        let answer = try HubProtocol.decoded(HubProtocol.Applied.self, from: body, hub: description)
        for row in answer.items {
            let pulled = try HubProtocol.answered(hub: description) { try HubProtocol.pulledItem(row) }
            judgedRows[pulled.id] = pulled
        }
        return AppliedBatch(applied: answer.applied, alreadyApplied: answer.alreadyApplied, conflictsOpened: answer.conflictsOpened)
    }

    func reading<T>(after position: Int, judged: Set<UUID>, _ body: (any HubPullSource) throws -> T) throws -> T {
        let changes = try HubProtocol.decoded(HubProtocol.Changes.self,
                                              from: try send(HubRequest(method: "GET", path: "/api/sync/changes?after=\(position)")),
                                              hub: description)
        let rows = judged.compactMap { judgedRows[$0] }
        return try body(ServedPull(hub: self, answer: changes, judged: rows))
    }

    /// The next page of a whole pull.
    fileprivate func page(after: String) throws -> HubProtocol.Page {
        try HubProtocol.decoded(HubProtocol.Page.self,
                                from: try send(HubRequest(method: "GET", path: "/api/sync/items?after=\(after)")), hub: description)
    }

    /// Sends `request`; an answer other than 200 becomes the ``SyncError`` it means.
    private func send(_ request: HubRequest, pushing: Bool = false) throws -> [UInt8] {
        let response: HubResponse
        do {
            response = try transport.exchange(request)
        } catch let error as HubTransportError {
            throw SyncError.hubUnreachable(hub: description, reason: error.reason)
        }
        let detail = HubProtocol.problemDetail(response.body)
        switch response.status {
        case 200: return response.body
        case 401, 403: throw SyncError.hubRefusedToken(hub: description, detail: detail)
        case 405 where pushing: throw SyncError.hubReadOnly(hub: description, waiting: nil)
        case 404 where request.path == "/api/sync": throw SyncError.notAHub(hub: description)
        case 409: throw SyncError.hubRefused(hub: description, detail: detail)
        case 400..<500: throw SyncError.requestRefused(hub: description, request: "\(request.method) \(request.path.split(separator: "?")[0])", status: response.status, detail: detail)
        default: throw SyncError.hubFailed(hub: description, status: response.status, detail: detail)
        }
    }
}

/// A served hub's pull source: the answer to `GET /api/sync/changes`, and the pages of a
/// whole pull asked for as they are written.
private struct ServedPull: HubPullSource {
    let hub: ServedHub
    let answer: HubProtocol.Changes
    let judged: [PulledItem]

    var position: Int { answer.position }

    func everyItem(_ body: ([PulledItem]) throws -> Void) throws {
        var after = ""
        while true {
            let page = try hub.page(after: after)
            let items = try HubProtocol.answered(hub: hub.description) { try page.items.map(HubProtocol.pulledItem) }
            if !items.isEmpty { try body(items) }
            guard let next = page.next else { return }
            after = next
        }
    }

    func changedItems() throws -> (changed: [PulledItem], judged: [PulledItem]) {
        guard !answer.whole else {
            throw SyncError.hubAnswer(hub: hub.description, reason: "it answered a whole pull where an incremental one was asked for")
        }
        let changed = try HubProtocol.answered(hub: hub.description) { try answer.items.map(HubProtocol.pulledItem) }
        let ids = Set(changed.map(\.id))
        return (changed, judged.filter { !ids.contains($0.id) }.sorted { $0.id.lowercasedString < $1.id.lowercasedString })
    }

    func openConflicts() throws -> [IdentifiedDraft] {
        try HubProtocol.answered(hub: hub.description) { try answer.conflicts.map(HubProtocol.draft) }
    }
}

extension HubProtocol {
    /// A document from the hub's answer; one that does not read is the server's fault.
    static func decoded<Document: Decodable>(_ type: Document.Type, from body: [UInt8], hub: String) throws -> Document {
        do {
            return try decode(type, from: body)
        } catch {
            throw SyncError.hubAnswer(hub: hub, reason: "its answer is not the protocol's \(type) document")
        }
    }

    /// Runs `body`, which reads rows the hub sent; a row that does not decode is the hub's fault.
    static func answered<T>(hub: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw SyncError.hubAnswer(hub: hub, reason: "a row it sent does not decode: \(error)")
        }
    }

    /// The `detail` of a problem document, or the body's first line when it is not one.
    static func problemDetail(_ body: [UInt8]) -> String {
        struct Problem: Decodable { var detail: String }
        if let problem = try? decode(Problem.self, from: body) { return problem.detail }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? "(no detail)"
    }
}
