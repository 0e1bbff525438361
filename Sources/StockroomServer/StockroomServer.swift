import FoundationEssentials
import Glibc
import Hummingbird
import StockroomStore

/// `stockroom serve`: the JSON API and the web pages over one ``StorePool``.
///
/// Everything the server does goes through the store's engine-agnostic API; nothing here
/// knows whether the inventory is a file or a PostgreSQL database.
public struct StockroomServer: Sendable {
    /// What was asked for.
    public let configuration: ServerConfiguration
    /// The connections, each on its own thread.
    public let pool: StorePool
    /// Set when the process is told to stop: event streams end at once.
    public let stopping: StopFlag
    let boundPort: BoundPort
    /// What wakes the event streams: one observation of the database for the whole server.
    let commits: CommitBroadcast

    /// A server over `pool`. Nothing listens until ``run(onListening:)``.
    public init(configuration: ServerConfiguration, pool: StorePool, stopping: StopFlag = StopFlag()) {
        self.configuration = configuration
        self.pool = pool
        self.stopping = stopping
        boundPort = BoundPort(configuration.port)
        commits = CommitBroadcast(location: pool.location ?? .file(":memory:"),
                                  busyTimeoutMilliseconds: 5_000, stopping: stopping)
    }

    /// Every route, behind the problem answers and the security checks.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: SecurityMiddleware(configuration: configuration, boundPort: boundPort))
        let items = ItemsAPI(pool: pool, configuration: configuration)
        let drafts = DraftsAPI(pool: pool, configuration: configuration)
        let transfer = TransferAPI(pool: pool, configuration: configuration)
        items.register(on: router)
        drafts.register(on: router)
        transfer.register(on: router)
        SyncAPI(pool: pool, configuration: configuration).register(on: router)
        EventsAPI(pool: pool, stopping: stopping, commits: commits).register(on: router)
        OpenAPIDocument.register(on: router)
        Assets.register(on: router)
        ItemPages(items: items, drafts: drafts).register(on: router)
        DraftPages(drafts: drafts).register(on: router)
        ConflictPages(drafts: drafts).register(on: router)
        TransferPages(transfer: transfer).register(on: router)
        return router
    }

    /// What answers every request: the ``router()`` behind the access log and the HTTP
    /// conventions. Both wrap the router rather than each route, since a route is chosen by
    /// method: the conventions answer a `HEAD` through the `GET` route, and the log, outside
    /// them, still names the method the client sent.
    public func responder() -> CallbackResponder<BasicRequestContext> {
        let routes = router().buildResponder()
        let log = AccessLogMiddleware<BasicRequestContext>(format: configuration.logFormat)
        let conventions = HTTPConventionsMiddleware<BasicRequestContext>()
        return CallbackResponder { request, context in
            try await log.handle(request, context: context) { request, context in
                try await conventions.handle(request, context: context) { request, context in
                    try await routes.respond(to: request, context: context)
                }
            }
        }
    }

    /// The application, for ``run(onListening:)`` and for tests.
    public func application(onListening: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        let configuration = self.configuration
        let boundPort = self.boundPort
        var app = Application(
            responder: responder(),
            server: .http1(configuration: .init(idleTimeout: .seconds(60))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.set(port)
                onListening(configuration.url(port: port))
            }
        )
        // Hummingbird's own log goes to stdout, which carries only the URL: keep it quiet;
        // the access log on stderr says what happened.
        app.logger.logLevel = .critical
        return app
    }

    /// Listens until SIGTERM or SIGINT, then stops accepting, lets the requests in flight
    /// finish, and closes the store; `onListening` gets the URL once the port is bound.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        signal(SIGPIPE, SIG_IGN) // a client gone mid-export is an error return, not a kill
        try await application(onListening: onListening).runService()
        pool.close()
    }
}
