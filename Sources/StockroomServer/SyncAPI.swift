import FoundationEssentials
import Hummingbird
import StockroomStore

/// `/api/sync`: the hub side of the sync protocol (docs/replicas.md, "The sync protocol"),
/// for replicas that reach this server with `stockroom sync --hub URL`. The documents and the
/// rules are the store's (``HubEndpoint``); this file only routes, authenticates and turns
/// refusals into problem documents.
struct SyncAPI: Sendable {
    let pool: StorePool
    let configuration: ServerConfiguration
    /// One batch applied at a time by this server. Batches take the hub's history turn one
    /// after the other anyway; on PostgreSQL, where the pool has no single writer, a batch
    /// waiting for the turn would hold a pool thread, and 16 replicas at once would hold every
    /// thread the pages need (BENCHMARKS.md, W15 (d)).
    /// (A turn for pulls too was measured no better: W15 (d)'s page p99 77 and 137 ms against
    /// 70 and 79 ms without it, and each replica's pull waited longer.)
    private let batchTurn = Turn()

    init(pool: StorePool, configuration: ServerConfiguration) {
        self.pool = pool
        self.configuration = configuration
    }

    private var endpoint: HubEndpoint { HubEndpoint(readOnly: configuration.readOnly, location: pool.location) }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/sync") { request, _ in try await info(request) }
        router.post("/api/sync/batches") { request, _ in try await apply(request) }
        router.get("/api/sync/changes") { request, _ in try await changes(request) }
        router.get("/api/sync/items") { request, _ in try await items(request) }
    }

    func info(_ request: Request) async throws -> Response {
        try requireToken()
        let endpoint = self.endpoint
        return SyncAPI.answer(try await pool.read { try endpoint.info(in: $0) })
    }

    func apply(_ request: Request) async throws -> Response {
        try requireToken()
        let body = try await RequestBody.text(request, limit: HubEndpoint.largestBody, accepting: ["application/json"])
        let endpoint = self.endpoint
        let batch = try await SyncAPI.refusing { try endpoint.parseBatch(Array(body.utf8)) }
        return SyncAPI.answer(try await batchTurn.holding { try await SyncAPI.refusing { try await pool.write { try endpoint.apply(batch, in: $0) } } })
    }

    func changes(_ request: Request) async throws -> Response {
        try requireToken()
        guard let text = Form(request.uri.query)["after"], let after = Int(text), after >= 0 else {
            throw Problem(.badRequest, "after must be a history position: a whole number, 0 or more")
        }
        let endpoint = self.endpoint
        return SyncAPI.answer(try await pool.read { try endpoint.changes(after: after, in: $0) })
    }

    func items(_ request: Request) async throws -> Response {
        try requireToken()
        let after = Form(request.uri.query)["after"] ?? ""
        guard after.isEmpty || UUID(uuidString: after)?.lowercasedString == after else {
            throw Problem(.badRequest, "after must be an item id (lowercase UUID), or empty for the first page")
        }
        let endpoint = self.endpoint
        return SyncAPI.answer(try await pool.read { try endpoint.page(after: after, in: $0) })
    }

    /// Sync always needs the server's token, on loopback too: without one, any local program
    /// could write under a replica's name. The security checks have compared the one offered.
    private func requireToken() throws {
        guard configuration.token != nil else {
            throw Problem(.forbidden, "this server has no token, and sync always needs one: start it with --token-file FILE or STOCKROOM_TOKEN")
        }
    }

    private static func answer(_ body: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Runs `body`, turning the hub's refusals into their problem documents.
    private static func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as HubRefusal {
            throw Problem(HTTPResponse.Status(code: refusal.status), refusal.detail)
        }
    }
}

/// A turn taken in order: one holder at a time, the others waiting without a thread.
private actor Turn {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Runs `body` holding the turn, and gives it back however `body` ends.
    nonisolated func holding<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await take()
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await give()
        return try result.get()
    }
}
