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
/// the pool's writes run on one of its threads, in the order asked (``serializesWrites``), and
/// the grouped writes waiting there at a time share one commit (``groupedWrite(_:)``);
/// against other processes' writes they still take turns, each waiting up to the busy timeout,
/// then failing as busy.
public final class StorePool: Sendable {
    /// One piece of work for whichever thread is free, or the signal for a thread to stop.
    private enum Job: Sendable {
        case work(@Sendable (InventoryStore) -> Void)
        /// A write that may share its transaction with the grouped writes queued beside it.
        case grouped(GroupedWrite)
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

        /// The oldest job, waiting for one; when it is a grouped write, the grouped writes
        /// queued right behind it too (up to `limit` in all), in order. Only a lane with one
        /// thread takes groups (the writer's).
        func nextGroup(limit: Int) -> (first: Job, grouped: [GroupedWrite]) {
            while true {
                available.wait()
                let taken: (Job, [GroupedWrite])? = jobs.withLock { jobs in
                    guard !jobs.isEmpty else { return nil }
                    let first = jobs.removeFirst()
                    guard case .grouped(let write) = first else { return (first, []) }
                    var group = [write]
                    while group.count < limit, case .grouped(let next)? = jobs.first {
                        group.append(next)
                        jobs.removeFirst()
                    }
                    return (first, group)
                }
                guard let (first, group) = taken else { continue }
                // One signal per job taken: each was (or is about to be) signalled by `add`.
                for _ in group.dropFirst() { available.wait() }
                return (first, group)
            }
        }
    }

    /// Reads, and everything when writes are not serialised.
    private let reads = Lane()
    /// Writes when ``serializesWrites``: one thread (the first) takes them, one at a time, in
    /// the order asked.
    private let writes = Lane()
    /// Streamed exports (``start(_:)``), on threads and stores of their own. An export holds its
    /// thread for as long as its client takes to download it: on the reading threads, three
    /// slow downloads held all three, and every page waited behind them (BENCHMARKS.md,
    /// "Exports beside pages"). Here at most ``exportingThreads`` run at once; a further one
    /// waits its turn in this lane, never refused, and the reads keep their threads. The
    /// threads and their stores are opened at the first export, so a pool that never exports
    /// holds no more connections than ``size`` (a PostgreSQL server's connections are few).
    private let exports = Lane()
    private let exportThreadsStarted = Atomic<Bool>(false)
    /// How each thread opens its store: kept for the export threads, opened on demand.
    private let open: @Sendable () throws -> InventoryStore
    /// How many threads (and stores) take the exports.
    package let exportingThreads: Int
    /// How many export threads a pool has by default: two downloads at once, a third waits.
    public static let defaultExportConnections = 2
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
    /// How many threads, and so connections, take the pool's reads and writes (the export
    /// threads come besides).
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
        return try await StorePool(size: connections, serializesWrites: isFile && !readOnly, location: location,
                                   exportConnections: defaultExportConnections) {
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
    /// `exportConnections` more stores, each on its own thread opened at the first streamed
    /// export, take the exports (the server streams them through the pool's package-level
    /// `start`), so that slow downloads never hold the threads that read.
    ///
    /// - Throws: the first store's opening error (nothing is left running).
    public init(size: Int, serializesWrites: Bool = false, location: DatabaseLocation? = nil,
                exportConnections: Int = defaultExportConnections,
                open: @escaping @Sendable () throws -> InventoryStore) async throws {
        precondition(size >= 1 && exportConnections >= 1)
        self.size = size
        self.location = location
        self.serializesWrites = serializesWrites
        exportingThreads = exportConnections
        self.open = open
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
                if number == 0 && hasWriter {
                    serveWrites(store)
                } else {
                    serve(store, from: reads)
                }
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
            case .grouped(let write):
                reconnection.attemptIfDue(store)
                _ = write.run(store)
                write.answer()
            case .stop: return
            }
        }
    }

    /// The most grouped writes one commit takes: a bound on how long a group's transaction
    /// holds the write lock against other processes, and on how many run again alone when
    /// the group is not applied. 16 clients queue at most 16.
    static let largestGroup = 64

    /// The writer lane's loop (on a file): the writes in the order asked, the grouped writes
    /// waiting at the moment one is taken committed together (``groupedWrite(_:)``).
    private func serveWrites(_ store: InventoryStore) {
        while true {
            let (first, group) = writes.nextGroup(limit: StorePool.largestGroup)
            switch first {
            case .work(let body): body(store)
            case .grouped: commit(group, on: store)
            case .stop: return
            }
        }
    }

    /// Runs `group` in one transaction with one commit, each write in its savepoint, and
    /// answers every caller after the commit is durable. A write that fails is rolled back
    /// alone and its caller gets its own error, after the others' commit.
    ///
    /// When the shared transaction is not applied (its COMMIT failed before the commit record,
    /// or SQLite ended it after a write's error), each write runs again alone, in order, and
    /// its caller gets that outcome: exactly the error (or success) it would have got had it
    /// never been grouped, where reporting the group's error to all would fail writes that
    /// alone succeed (a group too large for the disk's last free pages, one write whose error
    /// ends the transaction). This is why a grouped body may only use the store. When the
    /// commit's outcome is unknown (an fsync failed), every caller gets that error and nothing
    /// runs again: a write that was saved must not be applied twice.
    private func commit(_ group: [GroupedWrite], on store: InventoryStore) {
        guard group.count > 1 else {
            _ = group[0].run(store)
            group[0].answer()
            return
        }
        do {
            try store.connection.commitTogether(group.map { write in { write.run(store) } })
            groupsCommitted.add(1, ordering: .relaxed)
            for write in group { write.answer() }
        } catch GroupCommitFailure.notApplied {
            for write in group {
                _ = write.run(store)
                write.answer()
            }
        } catch GroupCommitFailure.couldNotBegin(let error), GroupCommitFailure.outcomeUnknown(let error) {
            for write in group { write.fail(error) }
        } catch {
            for write in group { write.fail(error) }
        }
    }

    /// How many groups of two writes or more shared a commit: what a test or benchmark reads
    /// to see that writes were grouped.
    package var groupCommits: Int { groupsCommitted.load(ordering: .relaxed) }
    private let groupsCommitted = Atomic<Int>(0)

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

    /// Syncs this replica with its hub: pushes the changes made here, then pulls the hub's
    /// (docs/replicas.md). The first sync names the hub, and attaches the file to it; later
    /// ones may leave it out. Conflicts become resolving drafts (`Draft.resolving`),
    /// which ``read(_:)`` lists like any draft.
    ///
    /// ```swift
    /// let stall = try await StorePool.open(.file("stall.sqlite"))
    /// let report = try await stall.sync(hub: .file("/srv/shop.sqlite"))
    /// print(report.pushed, report.conflicts)
    /// ```
    ///
    /// - Parameters:
    ///   - hub: the hub's file or PostgreSQL URI; nil for the one the replica remembers.
    ///   - busyTimeout: how long to wait for the hub's locks, and for another sync of this
    ///     replica, before failing as busy.
    /// - Throws: ``SyncError`` for a refusal (nothing changed on either side); the engines'
    ///   errors for a hub that cannot be reached or stays locked (every change is kept).
    public func sync(hub: DatabaseLocation? = nil, busyTimeout: Duration = .seconds(5)) async throws -> SyncReport {
        let path = try replicaPath()
        let milliseconds = busyTimeout.clampedMilliseconds
        return try await run({ _ in
            try ReplicaSync.run(path: path, hub: hub.map(HubAddress.database), busyTimeoutMilliseconds: milliseconds)
        }, in: hasWriter ? writes : reads)
    }

    /// Syncs this replica with a `stockroom serve` hub reached through `transport`, as
    /// ``sync(hub:busyTimeout:)`` does with a database: the same rules, applied by the
    /// server; the first sync attaches the file to the server's database.
    ///
    /// ```swift
    /// import StockroomHTTP
    ///
    /// let shop = try HTTPHubTransport(url: "https://shop.example:8443/", token: token)
    /// let report = try await stall.sync(through: shop)
    /// ```
    ///
    /// - Throws: ``SyncError`` for a refusal, a refused token, a read-only server with changes
    ///   waiting, a server that cannot be reached or fails (every change not yet pushed is
    ///   kept for the next sync).
    public func sync(through transport: any HubTransport, busyTimeout: Duration = .seconds(5)) async throws -> SyncReport {
        let path = try replicaPath()
        let milliseconds = busyTimeout.clampedMilliseconds
        return try await run({ _ in
            try ReplicaSync.run(path: path, hub: .server(transport), busyTimeoutMilliseconds: milliseconds)
        }, in: hasWriter ? writes : reads)
    }

    /// The replica's hub, id, waiting changes, last sync and open conflicts, read without
    /// reaching the hub.
    ///
    /// - Throws: ``SyncError/notAReplica(path:attaching:)`` before the first sync.
    public func syncStatus() async throws -> ReplicaStatus {
        let path = try replicaPath()
        return try await read { _ in try ReplicaSync.status(path: path) }
    }

    private func replicaPath() throws -> String {
        guard case .file(let path) = location else { throw SyncError.replicaOnServer }
        return path
    }

    /// Runs `body` in one write transaction with a store on one of the pool's threads and
    /// returns its result, after the transaction is durable: ``write(_:)`` for the many small
    /// writes of a server's clients.
    ///
    /// On a file the pool's writes take turns on its writer thread, and a commit waits for the
    /// disk's sync: one writer makes as many commits a second as the disk takes syncs. So the
    /// grouped writes waiting for the writer when it is free run in one transaction, each in
    /// a savepoint of its own, and share one COMMIT and one sync. Each caller still gets only
    /// its own outcome: a body that throws (a refused write: a constraint, a version conflict)
    /// is rolled back alone, its error its own; the others are saved. Every caller is answered
    /// after the shared COMMIT is durable. When that COMMIT fails, each body runs again alone
    /// and its caller gets what it gets then, which is what it would have got had it not been
    /// grouped; an unknown outcome (a failed sync) is every caller's error. A write that waits
    /// alone runs alone, as ``write(_:)``. On a PostgreSQL server each runs in its own
    /// transaction, side by side (the server makes concurrent commits share its syncs).
    ///
    /// `body` must only use the store until it returns (no output, no counting, nothing sent):
    /// it may run twice, once in a group that is then not applied. Its writes are applied
    /// together or not at all, as in ``InventoryStore/write(_:)``. Use ``write(_:)`` for work
    /// that needs a transaction of its own (an import, a migration).
    public func groupedWrite<T: Sendable>(_ body: @escaping @Sendable (InventoryStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            (hasWriter ? writes : reads).add(.grouped(GroupedWrite(body, answering: continuation)))
        }
    }

    /// Runs `body` on one of the export threads without waiting for it (a streamed export,
    /// which reports through its own channel), after the exports asked before it.
    package func start(_ body: @escaping @Sendable (InventoryStore) -> Void) {
        if !exportThreadsStarted.exchange(true, ordering: .acquiringAndReleasing) { startExportThreads() }
        exports.add(.work(body))
    }

    private func startExportThreads() {
        for number in 0..<exportingThreads {
            stopped.enter()
            DedicatedThread.start(name: "stockroom-export-\(number)") { [self] in
                defer { stopped.leave() }
                let store: InventoryStore
                do {
                    store = try open()
                } catch {
                    // No store of its own (the server refused another connection): its share
                    // of the exports goes to the reading threads, as before the lane, rather
                    // than being refused.
                    while true {
                        switch exports.next() {
                        case .work(let body): reads.add(.work(body))
                        case .grouped(let write): reads.add(.grouped(write))
                        case .stop: return
                        }
                    }
                }
                serve(store, from: exports)
            }
        }
    }

    /// How many threads take reads: all of ``size`` but the writer.
    package var readingThreads: Int { hasWriter ? size - 1 : size }

    /// How many jobs wait for a free thread: what was asked of the store and has not started.
    package var queuedJobs: Int {
        reads.jobs.withLock { $0.count } + writes.jobs.withLock { $0.count } + exports.jobs.withLock { $0.count }
    }

    /// Lets every thread finish the work queued before this call, then closes the stores;
    /// returns when all threads have ended.
    public func close() {
        // A thread that failed to open its store never started serving: a stop more than it
        // needs is left unread, harmless.
        if hasWriter { writes.add(.stop) }
        for _ in 0..<readingThreads { reads.add(.stop) }
        if exportThreadsStarted.load(ordering: .acquiring) {
            for _ in 0..<exportingThreads { exports.add(.stop) }
        }
        stopped.wait()
    }
}
