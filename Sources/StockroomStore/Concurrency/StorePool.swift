import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import TextFormats

/// The store that tasks share: a few threads, each owning one open ``InventoryStore``, that
/// run reads and writes for async code. `Sendable`; open it once and hand it around.
///
/// ```swift
/// let pool = try await StorePool.open(.file("inventory.sqlite"))
/// defer { pool.close() }
/// try await pool.write { store in
///     try store.items.insert(Item(name: "Keyboard", status: .inStock(quantity: 3)))
/// }
/// let items = try await pool.read { store in try store.items.list() }
/// ```
///
/// Why threads and not the async executor: every store call blocks (SQLite's busy wait up to
/// the busy timeout, a round trip to a PostgreSQL server), and a blocked cooperative thread
/// stalls every other task on a 2-core machine. The bodies you pass run on the pool's own
/// threads; the awaiting task is suspended, never blocked. Why one store per thread: an
/// ``InventoryStore`` is a connection, not `Sendable`; each one is opened, used and closed on
/// the thread that owns it, so nothing crosses threads but `Sendable` closures and results.
/// Several connections let reads run beside a write (SQLite's WAL; a server's MVCC). On a file
/// the pool's writes run on one of its threads, in the order asked (``serializesWrites``);
/// against other processes' writes they still take turns, each waiting up to the busy timeout,
/// then failing as busy.
public final class StorePool: Sendable {
    /// One piece of work for whichever thread is free, or the signal for a thread to stop.
    private enum Job: Sendable {
        case work(@Sendable (InventoryStore) -> Void)
        case stop
    }

    /// Jobs waiting for a thread, first come first served, and the count that wakes one.
    private final class Lane: Sendable {
        let jobs = Mutex<[Job]>([])
        let available = DispatchSemaphore(value: 0)

        func add(_ job: Job) {
            jobs.withLock { $0.append(job) }
            available.signal()
        }

        /// The oldest job, waiting for one.
        func next() -> Job {
            while true {
                available.wait()
                if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return job }
            }
        }
    }

    /// Reads, and everything when writes are not serialised.
    private let reads = Lane()
    /// Writes when ``serializesWrites``: one thread (the first) takes them, one at a time, in
    /// the order asked.
    private let writes = Lane()
    /// Whether the pool's own writes take turns in the process before asking the database:
    /// true on a file. SQLite lets one connection write at a time, and a connection that finds
    /// the lock taken sleeps in its busy handler (1, 2, 5, ... 100 ms at a time) whether or not
    /// the writer has finished, so 16 clients writing through 4 connections saw p99 latencies of
    /// a second (W10 in BENCHMARKS.md). So one of the threads writes, taking the writes in the
    /// order they were asked for: the next starts the moment the previous one commits, none
    /// waits behind a later one, and no reader's thread is held waiting for the writer's turn.
    /// (A lock around each write, taken by whichever thread had the job, did the first but not
    /// the others: a lock is not first come first served, and under 16 writers the unlucky one
    /// waited 100-280 ms, W10b in BENCHMARKS.md, while the threads it held kept reads queued.)
    /// Other processes still meet the busy timeout. A server database locks rows, not the
    /// database, so its writes run side by side on every thread.
    public let serializesWrites: Bool
    /// Whether the first thread takes only the writes: ``serializesWrites`` with another thread
    /// left for reads.
    private var hasWriter: Bool { serializesWrites && size > 1 }
    private let stopped = DispatchGroup()
    /// How many threads, and so connections, the pool has.
    public let size: Int
    /// Where the stores are, when the pool was opened for a location: what the server's event
    /// streams observe (`CommitBroadcast`).
    public let location: DatabaseLocation?

    /// How many connections ``open(_:busyTimeout:readOnly:connections:)`` opens by default: a
    /// few readers beside a writer.
    public static let defaultConnections = 4

    /// Opens the inventory at `location` with `connections` stores.
    ///
    /// - Parameters:
    ///   - location: the SQLite file or PostgreSQL server.
    ///   - busyTimeout: how long a write waits for another process's write lock (SQLite) or
    ///     row lock (PostgreSQL) before failing as busy.
    ///   - readOnly: open without creating or migrating anything, and refuse writes (a
    ///     SQLite file opened query-only); a missing file reads as an empty inventory.
    ///     Otherwise the database is created and migrated as by any writing command.
    ///   - connections: how many stores the pool opens, and so how many bodies run at once.
    /// - Throws: what ``InventoryStore/init(location:busyTimeout:)`` throws.
    public static func open(_ location: DatabaseLocation, busyTimeout: Duration = .seconds(5), readOnly: Bool = false,
                            connections: Int = defaultConnections) async throws -> StorePool {
        let milliseconds = busyTimeout.clampedMilliseconds
        let isFile = location.filePath != nil
        return try await StorePool(size: connections, serializesWrites: isFile && !readOnly, location: location) {
            if readOnly {
                return try InventoryStore.reading(location: location, busyTimeoutMilliseconds: milliseconds, contents: .itemHistory)
            }
            return try InventoryStore(location: location, busyTimeoutMilliseconds: milliseconds)
        }
    }

    /// Opens `size` stores with `open`, each on its own thread, and returns when all are open.
    ///
    /// The first is opened before the others start, so a database that needs creating or
    /// migrating is created and migrated once, not raced by `size` connections.
    ///
    /// - Throws: the first store's opening error (nothing is left running).
    public init(size: Int, serializesWrites: Bool = false, location: DatabaseLocation? = nil,
                open: @escaping @Sendable () throws -> InventoryStore) async throws {
        precondition(size >= 1)
        self.size = size
        self.location = location
        self.serializesWrites = serializesWrites
        for index in 0..<size {
            do {
                try await startThread(number: index, open: open)
            } catch {
                close()
                throw error
            }
        }
    }

    private func startThread(number: Int, open: @escaping @Sendable () throws -> InventoryStore) async throws {
        try await withCheckedThrowingContinuation { (opened: CheckedContinuation<Void, any Error>) in
            stopped.enter()
            DedicatedThread.start(name: "stockroom-store-\(number)") { [self] in
                defer { stopped.leave() }
                let store: InventoryStore
                do {
                    store = try open()
                } catch {
                    opened.resume(throwing: error)
                    return
                }
                opened.resume()
                serve(store, from: number == 0 && hasWriter ? writes : reads)
            }
        }
    }

    /// The thread's loop: take the oldest job of `lane`, run it with this thread's store, until
    /// told to stop.
    private func serve(_ store: InventoryStore, from lane: Lane) {
        var reconnection = Reconnection()
        while true {
            switch lane.next() {
            case .work(let body):
                reconnection.attemptIfDue(store)
                body(store)
            case .stop: return
            }
        }
    }

    /// The longest pause between a thread's attempts to reconnect (``Reconnection``): how long
    /// an event stream whose read found the server unreachable waits before reading again.
    package static let longestReconnectionPause = Reconnection.longestPause

    /// When a thread's PostgreSQL connection broke (the server stopped or restarted), it
    /// connects again before its next job. The break is found before the job runs
    /// (``InventoryStore/isDisconnected`` reads the server's goodbye), so the first job after a
    /// restart reconnects instead of failing on the old session. While the server stays away
    /// a thread tries at most once per pause, the pauses doubling from
    /// ``Reconnection/firstPause`` to ``Reconnection/longestPause``, and a job meanwhile fails
    /// at once as the server being unreachable: `503` with `Retry-After`, never a wait per
    /// request. The bound is short because it is what a client waits, after the server is
    /// back, for a thread that tried just before: with pauses up to 5 s a server back after an
    /// 8 s outage was answered 2.3 to 3.9 s later (issue 37); a failed attempt on a server's
    /// Unix socket or refusing port fails at once, without a wait.
    struct Reconnection {
        static let firstPause: Duration = .milliseconds(50)
        static let longestPause: Duration = .milliseconds(250)
        private var pause = firstPause
        private var notBefore = ContinuousClock.now

        mutating func attemptIfDue(_ store: InventoryStore) {
            guard store.isDisconnected, ContinuousClock.now >= notBefore else { return }
            do {
                try store.reconnect()
                pause = Reconnection.firstPause
            } catch {
                notBefore = .now + pause
                pause = min(pause * 2, Reconnection.longestPause)
            }
        }
    }


    /// Runs `body`, which reads, with a store on one of the pool's threads and returns its
    /// result.
    ///
    /// `body` runs to its end even when the awaiting task is cancelled: a transaction is never
    /// abandoned half way.
    public func read<T: Sendable>(_ body: @escaping @Sendable (InventoryStore) throws -> T) async throws -> T {
        try await run(body, in: reads)
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable (InventoryStore) throws -> T, in lane: Lane) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            lane.add(.work { store in continuation.resume(with: Result { try body(store) }) })
        }
    }

    /// Runs `body`, which writes, with a store on one of the pool's threads and returns its
    /// result; with ``serializesWrites``, one such body at a time in this process, in the order
    /// they were asked for.
    public func write<T: Sendable>(_ body: @escaping @Sendable (InventoryStore) throws -> T) async throws -> T {
        try await run(body, in: hasWriter ? writes : reads)
    }

    /// Runs `body` on a pool thread without waiting for it (a streamed export, which reports
    /// through its own channel).
    package func start(_ body: @escaping @Sendable (InventoryStore) -> Void) {
        reads.add(.work(body))
    }

    /// How many threads take reads (and the work of ``start(_:)``): all but the writer.
    package var readingThreads: Int { hasWriter ? size - 1 : size }

    /// How many jobs wait for a free thread: what was asked of the store and has not started.
    package var queuedJobs: Int { reads.jobs.withLock { $0.count } + writes.jobs.withLock { $0.count } }

    /// Lets every thread finish the work queued before this call, then closes the stores;
    /// returns when all threads have ended.
    public func close() {
        // A thread that failed to open its store never started serving: a stop more than it
        // needs is left unread, harmless.
        if hasWriter { writes.add(.stop) }
        for _ in 0..<readingThreads { reads.add(.stop) }
        stopped.wait()
    }
}
