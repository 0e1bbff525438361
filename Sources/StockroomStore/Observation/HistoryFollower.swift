import FoundationEssentials
import Glibc
import Inventory
import TextFormats

/// Follows the history of an inventory as it is committed, by anyone: this process, another
/// `stockroom`, `stockroom-serve`, the `sqlite3` shell, `psql`. Blocking, for one thread; the
/// async forms are ``HistoryEvents`` and ``ItemQueryObservation``.
///
/// ``next(limit:)`` returns the events after the last one it returned, in commit order (their
/// `PositionedItemEvent.position`: 1, 2, 3, … without gaps), and when there are none waits
/// until the database says something was committed: on a file, the kernel reports the write
/// to the WAL (inotify(7)); on PostgreSQL, the history triggers `NOTIFY` the one connection
/// the follower keeps, which `LISTEN`s. No timer runs while nothing is written, except in the
/// file fallback described in docs/observation.md.
///
/// Nothing is lost or repeated, and a follower resumes from any position (``position``). When
/// the history it was reading is no longer the database's (a `restore`, the file deleted or
/// replaced), it throws ``ObservationError`` rather than skip silently.
///
/// Not `Sendable`: use it on one thread. ``stopSignal`` may be stopped from any thread (or a
/// signal handler), which makes a waiting ``next(limit:)`` return an empty page at once.
public final class HistoryFollower {
    /// Stopping it ends the follower: a waiting ``next(limit:)`` returns `[]`, and so do later calls.
    public let stopSignal: StopSignal
    /// The position of the last event returned (or the position the follower started after):
    /// where another follower would resume.
    public private(set) var position: Int64
    /// The last event returned, to find out when the history under it was replaced.
    private var lastEvent: RecordedItemEvent?
    private let location: DatabaseLocation
    private let reader: ObservedStore

    /// Starts following the inventory at `location` after `position` (nil or 0: from the first
    /// event; use ``InventoryStore/items``' `lastEventPosition()` for "from now on").
    ///
    /// The file (or server database) is only read: a reader who may not write the file still
    /// follows it.
    ///
    /// - Throws: ``ObservationError/databaseMissing(path:)`` when there is no Stockroom
    ///   database there yet; what opening the store for reading throws (``DatabaseFileError``,
    ///   `PostgresError`).
    public init(location: DatabaseLocation, after position: Int64? = nil, busyTimeout: Duration = .seconds(5),
                stopSignal: StopSignal = StopSignal()) throws {
        self.location = location
        self.position = max(position ?? 0, 0)
        self.stopSignal = stopSignal
        reader = try ObservedStore(location: location, busyTimeoutMilliseconds: busyTimeout.clampedMilliseconds)
    }

    /// The next events in commit order, at most `limit`: at once when some are committed after
    /// ``position``, else once one is. Empty only when ``stopSignal`` was stopped.
    ///
    /// - Throws: ``ObservationError`` when the history was replaced or the file deleted or
    ///   replaced; the store's errors otherwise (on PostgreSQL a lost connection is not one:
    ///   the follower reconnects with bounded back-off and resumes from ``position``).
    public func next(limit: Int = 500) throws -> [PositionedItemEvent] {
        precondition(limit >= 1, "a page holds at least one event")
        while !stopSignal.isStopped {
            let page = try reader.retrying(stop: stopSignal) { store in try read(store, limit: limit) }
            guard let page else { return [] }
            if !page.isEmpty { return page }
            let last = position
            let woke = try reader.waitForCommit(stop: stopSignal) { store in try store.items.lastEventPosition() != last }
            if !woke { return [] }
        }
        return []
    }

    /// Events after ``position``, after checking that the event at ``position`` is still the
    /// one read last (one statement: the page starts one position earlier).
    private func read(_ store: InventoryStore, limit: Int) throws -> [PositionedItemEvent] {
        guard position > 0 else { return accept(try store.items.events(after: nil, limit: limit)) }
        let rows = try store.items.events(after: position - 1, limit: limit + 1)
        guard let first = rows.first else {
            let last = try store.items.lastEventPosition()
            if lastEvent != nil { throw ObservationError.historyReplaced(path: location.description, position: position) }
            throw ObservationError.positionBeyondHistory(path: location.description, position: position, last: last)
        }
        guard first.position == position, lastEvent == nil || lastEvent == first.recorded else {
            throw ObservationError.historyReplaced(path: location.description, position: position)
        }
        lastEvent = first.recorded
        return accept(Array(rows.dropFirst()))
    }

    private func accept(_ page: [PositionedItemEvent]) -> [PositionedItemEvent] {
        if let last = page.last {
            position = last.position
            lastEvent = last.recorded
        }
        return page
    }
}

/// A store opened for reading the history, with the watch that says when to read again.
/// The watch is made before the first read, so no commit falls between a read and a wait.
final class ObservedStore {
    private(set) var store: InventoryStore
    private let watch: any CommitWatch

    init(location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws {
        switch location {
        case .file(let path):
            guard FileManager.default.fileExists(atPath: path) else { throw ObservationError.databaseMissing(path: path) }
            // Watch first: a commit while the store opens is then seen.
            let watch = try FileCommitWatch.make(path: path)
            store = try InventoryStore.reading(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                               contents: .itemHistoryPositions)
            guard store.database?.path != ":memory:" else { throw ObservationError.databaseMissing(path: path) }
            self.watch = watch
        case .postgres:
            store = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                               contents: .itemHistoryPositions)
            // A database whose tables were never created reads as an in-memory stand-in, which
            // no server watches.
            guard let watch = try store.connection.serverCommitWatch() else {
                throw ObservationError.databaseMissing(path: location.description)
            }
            self.watch = watch
        }
    }

    /// Runs `body` with the store; when the engine lost its connection, reconnects (bounded
    /// back-off, see ``CommitWatch/recover(from:stop:)``) and runs it again. Nil when stopped.
    func retrying<T>(stop: StopSignal, _ body: (InventoryStore) throws -> T) throws -> T? {
        while true {
            do {
                return try body(store)
            } catch {
                guard try watch.recover(from: error, stop: stop) else { return nil }
            }
        }
    }

    /// Waits until `confirmed` says a commit not yet seen is visible; false when stopped.
    func waitForCommit(stop: StopSignal, until confirmed: (InventoryStore) throws -> Bool) throws -> Bool {
        let store = self.store
        while true {
            do {
                return try watch.wait(stop: stop) { try confirmed(store) }
            } catch {
                guard try watch.recover(from: error, stop: stop) else { return false }
                // Reconnected: whatever was committed meanwhile is read by the caller now.
                return true
            }
        }
    }
}
