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
/// Streams are woken by the commit, not by a timer: the server's one ``CommitBroadcast``
/// observes the database (inotify on a file, `LISTEN` on PostgreSQL) and wakes every waiting
/// stream when anything is committed, by any process; each then reads the positions after
/// the last one it sent (one indexed read through the pool). A quiet stream costs nothing.
///
/// With `?include=conflicts` the stream also carries a `conflicts` event, `{"open":N}`, at once
/// and whenever the number of open conflicts changes (a sync opens and closes them, not always
/// with an item's change): the list page's live count. The broadcast observes that count too.
///
/// A stream open while the database cannot be reached (a PostgreSQL restart) stays open and
/// reads again every ``retryPause`` until it can, then goes on from its last position: it
/// delivers what was committed meanwhile, or ends with the server, never silently in between.
struct EventsAPI: Sendable {
    let pool: StorePool
    let stopping: StopFlag
    let commits: CommitBroadcast

    /// A comment line this often keeps proxies and idle timeouts from closing a quiet stream.
    static let keepAliveInterval: Duration = .seconds(15)
    /// Events read at a time at most; a client far behind catches up page by page.
    static let batch = 500
    /// How soon a stream reads again after its read found the database unreachable: the pool's
    /// longest pause between attempts to reconnect, so a stream is no later than a request
    /// once the server is back.
    static let retryPause = StorePool.longestReconnectionPause

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

    /// Whether the client asked for the open conflicts' count too (`?include=conflicts`).
    static func includesConflicts(_ request: Request) throws -> Bool {
        guard let text = Form(request.uri.query)["include"] else { return false }
        guard text == "conflicts" else {
            throw Problem(.badRequest, "include must be 'conflicts', not '\(RequestChecks.printable(text))'")
        }
        return true
    }

    /// The `conflicts` event: how many conflicts are open, sent at once and then whenever the
    /// count changes. It has no `id`, so it does not move the position a reconnection resumes
    /// after.
    static func conflictsText(_ open: Int) -> String {
        "event: conflicts\ndata: {\"open\":\(open)}\n\n"
    }

    /// One event in the stream's syntax: its position as `id`, its kind as `event`, and the
    /// object `items history --format json` prints for it as `data`.
    static func text(_ event: PositionedItemEvent) -> String {
        "id: \(event.position)\nevent: \(event.recorded.event.case.rawValue)\ndata: \(JSONPresentation.object(for: event.recorded))\n\n"
    }

    private func stream(_ request: Request) throws -> Response {
        let start = try EventsAPI.start(request)
        let withConflicts = try EventsAPI.includesConflicts(request)
        let pool = self.pool, stopping = self.stopping, commits = self.commits
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var last = start
            // The count of open conflicts last sent, when the client asked for it.
            var sentConflicts: Int?
            // While reads find the database unreachable: since when, for the keep-alives.
            var unreachableSince: ContinuousClock.Instant?
            // The first bytes at once, so the client knows the stream is open.
            try await writer.write(ByteBuffer(string: ": stockroom events\nretry: 1000\n\n"))
            while !stopping.isStopped, !Task.isCancelled {
                let generation = commits.generation
                let after = last
                let events: [PositionedItemEvent], conflicts: Int?
                do {
                    (events, conflicts) = try await pool.read { store in
                        try store.read {
                            (try store.items.events(after: after, limit: EventsAPI.batch),
                             withConflicts ? try store.drafts.conflictCount() : nil)
                        }
                    }
                } catch where StoreFailure.meansUnreachable(error) {
                    // The server cannot be reached (PostgreSQL restarting): nothing is committed
                    // meanwhile, so the stream stays open and reads again soon, from its last
                    // position. Ending it would send EventSource to reconnect, and a reconnection
                    // answered 503 while the server is away ends EventSource for good.
                    if await EventsAPI.wait(for: commits, after: generation, atMost: EventsAPI.retryPause) == .stopped {
                        return try await writer.finish(nil)
                    }
                    let since = unreachableSince ?? .now
                    unreachableSince = since
                    if ContinuousClock.now - since >= EventsAPI.keepAliveInterval {
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        unreachableSince = .now
                    }
                    continue
                }
                unreachableSince = nil
                if let conflicts, conflicts != sentConflicts {
                    try await writer.write(ByteBuffer(string: EventsAPI.conflictsText(conflicts)))
                    sentConflicts = conflicts
                }
                if events.isEmpty {
                    switch await EventsAPI.wait(for: commits, after: generation) {
                    case .commit: continue
                    case .stopped: return try await writer.finish(nil)
                    case .quiet:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        while true {
                            switch await EventsAPI.wait(for: commits, after: generation) {
                            case .commit: break
                            case .stopped: return try await writer.finish(nil)
                            case .quiet:
                                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                                continue
                            }
                            break
                        }
                        continue
                    }
                }
                try await writer.write(ByteBuffer(string: events.map(EventsAPI.text).joined()))
                last = events.last?.position
            }
            try await writer.finish(nil)
        })
    }
}

extension EventsAPI {
    /// What ended a stream's wait.
    enum Wake {
        /// A commit after the stream's read: read again.
        case commit
        /// ``keepAliveInterval`` passed without one: say so to the client, and wait on.
        case quiet
        /// The server stops, or the client went away.
        case stopped
    }

    /// Waits for a commit after `generation`, at most `limit`.
    static func wait(for commits: CommitBroadcast, after generation: Int, atMost limit: Duration = keepAliveInterval) async -> Wake {
        await withTaskGroup(of: Wake.self) { group in
            group.addTask { await commits.waitForCommit(after: generation) ? .commit : .stopped }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                    return .quiet
                } catch {
                    return .stopped
                }
            }
            defer { group.cancelAll() }
            return await group.next() ?? .stopped
        }
    }
}

extension HTTPFields.Element.Name {
    /// `Last-Event-ID`: the id of the last event an EventSource received.
    static let lastEventID = Self("Last-Event-ID")!
}
