import Inventory
import TextFormats

/// A value read from an inventory, read again whenever a commit (by anyone: this process,
/// another `stockroom`, `stockroom-serve`, `sqlite3`, `psql`) adds to its history: an
/// `AsyncSequence` of fresh values, the first one at once.
///
/// Bursts are coalesced: the value is read again only when the consumer asks for the next
/// one, once, however many commits came in between (a million-row import, one commit, gives
/// one value; a thousand commits while the consumer was busy give one value too). A value
/// equal to the last one returned is not returned again. Every change to `items` appends
/// history, so a commit that could change the value is always seen; one that cannot (another
/// item's change) may give an equal value, which is skipped.
///
/// Each iterator reads on a thread of its own with its own read connection and watch (see
/// ``HistoryFollower`` for how each engine is woken); dropping the iterator or cancelling its
/// task closes them. ``ItemQueryObservation`` observes an ``ItemQuery``.
public struct StoreObservation<Value: Sendable & Equatable>: AsyncSequence, Sendable {
    public typealias Element = Value

    /// Where the inventory is.
    public let location: DatabaseLocation
    /// How long a read waits for a writer's lock (SQLite).
    public let busyTimeout: Duration
    private let read: @Sendable (InventoryStore) throws -> Value
    /// What a commit must move for the value to be read again: the history's last position,
    /// and what ``init(location:busyTimeout:marks:read:)`` adds.
    private let marks: @Sendable (InventoryStore) throws -> [Int64]

    /// Observes the value `read` returns, at `location`. `read` runs on the observation's
    /// thread, in one read transaction (one snapshot).
    public init(location: DatabaseLocation, busyTimeout: Duration = .seconds(5),
                read: @escaping @Sendable (InventoryStore) throws -> Value) {
        self.init(location: location, busyTimeout: busyTimeout, marks: { _ in [] }, read: read)
    }

    /// Observes the value `read` returns, read again after a commit that moved the history's
    /// last position or changed what `marks` returns: for a value that changes without
    /// history (the open conflicts, whose drafts a sync opens and closes without writing an
    /// item). `marks` runs at each wake, so it must be a cheap read (a count).
    package init(location: DatabaseLocation, busyTimeout: Duration = .seconds(5),
                 marks: @escaping @Sendable (InventoryStore) throws -> [Int64],
                 read: @escaping @Sendable (InventoryStore) throws -> Value) {
        self.location = location
        self.busyTimeout = busyTimeout
        self.read = read
        self.marks = { store in [try store.items.lastEventPosition()] + (try marks(store)) }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(observation: self) }

    /// Gives the value now, then again after each commit that changed it.
    public struct Iterator: AsyncIteratorProtocol {
        private let lifetime: ProducerLifetime<Value>
        private var finished = false

        init(observation: StoreObservation) {
            let location = observation.location, timeout = observation.busyTimeout.clampedMilliseconds
            let read = observation.read, marks = observation.marks
            lifetime = ProducerLifetime(BlockingProducer(name: "stockroom-observation", stop: StopSignal()) { stop in
                let reader = try ObservedStore(location: location, busyTimeoutMilliseconds: timeout)
                var seen: (marks: [Int64], value: Value)?
                return {
                    while !stop.isStopped {
                        if let last = seen?.marks {
                            guard try reader.waitForCommit(stop: stop, until: { try marks($0) != last }) else {
                                return nil
                            }
                        }
                        // The marks first, in the same snapshot: a commit after the read is
                        // then seen as a change by the next wait.
                        let fresh = try reader.retrying(stop: stop) { store in
                            try store.read { (try marks(store), try read(store)) }
                        }
                        guard let fresh else { return nil }
                        let changed = seen.map { $0.value != fresh.1 } ?? true
                        seen = (fresh.0, fresh.1)
                        if changed { return fresh.1 }
                    }
                    return nil
                }
            })
        }

        /// The value at first, later the next different value once a commit changed it; nil
        /// once the task was cancelled.
        public mutating func next() async throws -> Value? {
            guard !finished else { return nil }
            do {
                guard let value = try await lifetime.producer.next() else {
                    finished = true
                    return nil
                }
                return value
            } catch {
                finished = true
                throw error
            }
        }
    }
}

/// The items an ``ItemQuery`` matches, fresh after every commit that changed them (see
/// ``StoreObservation``).
///
/// ```swift
/// for try await items in ItemQueryObservation(location: .file(path), query: ItemQuery(status: .outOfStock)) {
///     show(items)
/// }
/// ```
public typealias ItemQueryObservation = StoreObservation<[Item]>

extension StoreObservation where Value == [Item] {
    /// Observes the items `query` matches at `location`.
    public init(location: DatabaseLocation, query: ItemQuery, busyTimeout: Duration = .seconds(5)) {
        self.init(location: location, busyTimeout: busyTimeout) { store in
            try store.items.list(matching: query)
        }
    }

    /// Observes the items `query` matches in the inventory `pool` was opened on.
    ///
    /// The observation reads with a connection of its own, not one of the pool's: an
    /// observation waits between commits, and a pool's connections serve requests.
    ///
    /// - Precondition: `pool` was opened for a location (``StorePool/open(_:busyTimeout:readOnly:connections:)``).
    public init(pool: StorePool, query: ItemQuery, busyTimeout: Duration = .seconds(5)) {
        self.init(location: pool.observedLocation, query: query, busyTimeout: busyTimeout)
    }
}

extension StoreObservation {
    /// Observes the value `read` returns, in the inventory `pool` was opened on, with a
    /// connection of its own (see ``init(location:busyTimeout:read:)``).
    ///
    /// - Precondition: `pool` was opened for a location (``StorePool/open(_:busyTimeout:readOnly:connections:)``).
    public init(pool: StorePool, busyTimeout: Duration = .seconds(5),
                read: @escaping @Sendable (InventoryStore) throws -> Value) {
        self.init(location: pool.observedLocation, busyTimeout: busyTimeout, read: read)
    }
}

extension StorePool {
    /// The location an observation made from this pool follows. Observations open a
    /// connection of their own, so they need to know where; a pool made from stores alone
    /// (``init(size:serializesWrites:location:open:)`` without `location`) cannot say.
    var observedLocation: DatabaseLocation {
        guard let location else {
            preconditionFailure("an observation needs a pool opened for a location: StorePool.open(_:) gives one, init(size:…) needs location:")
        }
        return location
    }
}
