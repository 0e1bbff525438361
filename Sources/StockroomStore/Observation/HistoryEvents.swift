import Inventory
import TextFormats

/// The history of an inventory as an `AsyncSequence`: every event committed after a position,
/// in commit order, nothing lost and nothing repeated, waiting for new commits by anyone once
/// it has caught up (it never ends by itself). A ``HistoryFollower`` on a thread of its own;
/// see it for how each engine is woken and what ends the sequence with an error
/// (``ObservationError``).
///
/// Where it starts: `after: nil` (the default) or `after: 0` reads the whole history from the
/// first event; `after: lastSeen` resumes after the last position a reader handled (kept across
/// runs, nothing is missed or repeated); to hear only what is committed from now on, start
/// after ``ItemRepository/lastEventPosition()``:
///
/// ```swift
/// let now = try await pool.read { store in try store.items.lastEventPosition() }
/// for try await entry in HistoryEvents(pool: pool, after: now) {
///     print(entry.position, entry.itemID, entry.event)
///     lastSeen = entry.position // resume from here next time
/// }
/// ```
///
/// Each iterator opens its own read connection (and watch) when it is first asked for an
/// event, and closes it when the iterator is dropped or its task is cancelled.
public struct HistoryEvents: AsyncSequence, Sendable {
    public typealias Element = PositionedItemEvent

    /// Where the inventory is.
    public let location: DatabaseLocation
    /// The position to start after: the sequence gives the events at later positions. nil or 0
    /// starts at the first event (the whole history); ``ItemRepository/lastEventPosition()``,
    /// read just before, starts at what is committed from then on.
    public let position: Int64?
    /// How long a read waits for a writer's lock (SQLite).
    public let busyTimeout: Duration
    /// Events read at a time at most.
    public let pageSize: Int

    /// The events of the inventory at `location` after `position`.
    ///
    /// - Parameters:
    ///   - location: the SQLite file or PostgreSQL server.
    ///   - position: the last position already seen: nil (the default) or 0 for the whole
    ///     history, ``ItemRepository/lastEventPosition()`` for what is committed from now on.
    ///   - busyTimeout: how long a read waits for a writer's lock (SQLite).
    ///   - pageSize: events read at a time at most (1 or more).
    public init(location: DatabaseLocation, after position: Int64? = nil, busyTimeout: Duration = .seconds(5),
                pageSize: Int = 500) {
        precondition(pageSize >= 1, "a page holds at least one event")
        self.location = location
        self.position = position
        self.busyTimeout = busyTimeout
        self.pageSize = pageSize
    }

    /// The events of the inventory `pool` was opened on, after `position` (see
    /// ``init(location:after:busyTimeout:pageSize:)``), read with a connection of their own.
    ///
    /// - Precondition: `pool` was opened for a location (``StorePool/open(_:busyTimeout:readOnly:connections:)``).
    public init(pool: StorePool, after position: Int64? = nil, busyTimeout: Duration = .seconds(5), pageSize: Int = 500) {
        self.init(location: pool.observedLocation, after: position, busyTimeout: busyTimeout, pageSize: pageSize)
    }

    /// The same events, a page at a time: each element holds the events committed since the
    /// previous one (at most ``pageSize``), never empty. What a writer of a stream uses to
    /// write a burst at once.
    public var pages: HistoryPages { HistoryPages(events: self) }

    public func makeAsyncIterator() -> Iterator { Iterator(pages: pages.makeAsyncIterator()) }

    /// Reads the events of one page after another.
    public struct Iterator: AsyncIteratorProtocol {
        private var pages: HistoryPages.Iterator
        private var page: [PositionedItemEvent] = []
        private var index = 0

        init(pages: HistoryPages.Iterator) { self.pages = pages }

        /// The next event, waiting for a commit when every committed event was returned.
        public mutating func next() async throws -> PositionedItemEvent? {
            if index == page.count {
                guard let next = try await pages.next() else { return nil }
                page = next
                index = 0
            }
            defer { index += 1 }
            return page[index]
        }
    }
}

/// ``HistoryEvents`` a page at a time (``HistoryEvents/pages``).
public struct HistoryPages: AsyncSequence, Sendable {
    public typealias Element = [PositionedItemEvent]

    let events: HistoryEvents

    public func makeAsyncIterator() -> Iterator { Iterator(events: events) }

    /// Reads one page after another on the follower's thread.
    public struct Iterator: AsyncIteratorProtocol {
        private let lifetime: ProducerLifetime<[PositionedItemEvent]>
        private var finished = false

        init(events: HistoryEvents) {
            let location = events.location, position = events.position
            let timeout = events.busyTimeout.clampedMilliseconds, pageSize = events.pageSize
            lifetime = ProducerLifetime(BlockingProducer(name: "stockroom-history", stop: StopSignal()) { stop in
                let follower = try HistoryFollower(location: location, after: position,
                                                   busyTimeout: .milliseconds(timeout), stopSignal: stop)
                return {
                    let page = try follower.next(limit: pageSize)
                    return page.isEmpty ? nil : page
                }
            })
        }

        /// The events committed since the last page, waiting for one when there are none;
        /// nil once the task was cancelled.
        public mutating func next() async throws -> [PositionedItemEvent]? {
            guard !finished else { return nil }
            do {
                guard let page = try await lifetime.producer.next() else {
                    finished = true
                    return nil
                }
                return page
            } catch {
                finished = true
                throw error
            }
        }
    }
}
