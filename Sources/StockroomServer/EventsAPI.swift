import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore
import TextFormats

/// `GET /api/events`: Server-Sent Events, one per history event committed by anyone (this
/// server, another one, a CLI process), in commit order.
///
/// Each event's `id` is its position (``PositionedItemEvent``: 1, 2, 3, … in commit order, no
/// gaps), so a client that reconnects with `Last-Event-ID: N` (browsers' EventSource does so by
/// itself) gets exactly the events after N: nothing lost, nothing repeated.
///
/// Why the store is polled (every ``pollInterval``) rather than told: the writers are other
/// processes as often as this one, and neither engine tells a process about another's commit
/// through the store's engine-agnostic API (SQLite has no notification at all; PostgreSQL's
/// LISTEN would be engine code in the front). The poll is one indexed read of the positions
/// after the last one sent, so it costs nothing when nothing changed, and an event shows
/// within a quarter of a second.
struct EventsAPI: Sendable {
    let pool: StorePool
    let stopping: StopFlag

    static let pollInterval: Duration = .milliseconds(250)
    /// A comment line this often keeps proxies and idle timeouts from closing a quiet stream.
    static let keepAliveInterval: Duration = .seconds(15)
    /// Events read per poll at most; a client far behind catches up page by page.
    static let batch = 500

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/events") { request, _ in try stream(request) }
    }

    /// The position to resume after: `Last-Event-ID`, else `?after=`, else the start.
    static func start(_ request: Request) throws -> Int64? {
        let text = request.headers[.lastEventID] ?? Form(request.uri.query)["after"]
        guard let text, !text.isEmpty else { return nil }
        guard let position = Int64(text), position >= 0 else {
            throw Problem(.badRequest, "Last-Event-ID must be the id of an event this server sent (a whole number)")
        }
        return position
    }

    /// One event in the stream's syntax: its position as `id`, its kind as `event`, and the
    /// object `items history --format json` prints for it as `data`.
    static func text(_ event: PositionedItemEvent) -> String {
        "id: \(event.position)\nevent: \(event.recorded.event.case.rawValue)\ndata: \(JSONPresentation.object(for: event.recorded))\n\n"
    }

    private func stream(_ request: Request) throws -> Response {
        let start = try EventsAPI.start(request)
        let pool = self.pool, stopping = self.stopping
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var last = start
            var quiet = ContinuousClock.now
            // The first bytes at once, so the client knows the stream is open.
            try await writer.write(ByteBuffer(string: ": stockroom events\nretry: 1000\n\n"))
            while !stopping.isStopped, !Task.isCancelled {
                let after = last
                let events = try await pool.read { store in try store.items.events(after: after, limit: EventsAPI.batch) }
                if events.isEmpty {
                    if quiet.duration(to: .now) >= EventsAPI.keepAliveInterval {
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        quiet = .now
                    }
                    try await Task.sleep(for: EventsAPI.pollInterval)
                    continue
                }
                try await writer.write(ByteBuffer(string: events.map(EventsAPI.text).joined()))
                last = events.last?.position
                quiet = .now
            }
            try await writer.finish(nil)
        })
    }
}

extension HTTPFields.Element.Name {
    /// `Last-Event-ID`: the id of the last event an EventSource received.
    static let lastEventID = Self("Last-Event-ID")!
}
