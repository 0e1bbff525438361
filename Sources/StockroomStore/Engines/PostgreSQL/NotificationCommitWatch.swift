import FoundationEssentials
import Glibc
import PostgresCore

/// How a follower of a PostgreSQL database learns of a commit by any client: the history
/// triggers `NOTIFY` (the `history_notifications` migration), and the follower's one connection
/// `LISTEN`s, waiting on its socket with `poll(2)`. The server sends a notification when the
/// transaction commits, so the commit is visible by then; the caller's check (the last
/// position) still confirms it, since other schemas of the same database notify the same
/// channel.
///
/// The same connection runs the follower's reads (libpq keeps a notification that arrives
/// during a statement for the next ``Connection/receivedNotifications()``). When it breaks (the
/// server stopped or restarted), ``recover(from:stop:)`` connects again with a bounded back-off
/// (``backOffMilliseconds``), listens again, and the caller reads from its last position:
/// what was committed while it was away is read then, nothing lost.
final class NotificationCommitWatch: CommitWatch {
    /// The channel the history triggers notify (Migrations/postgres/, the `history_notifications` migration).
    static let channel = "stockroom_item_events"
    /// Pauses between attempts to connect again, in milliseconds; the last one repeats. Short,
    /// as the pool's (`StorePool`): once the server is back, a follower (an event stream's
    /// wake-up) is at most this late, and a failed attempt costs little.
    static let backOffMilliseconds: [Int32] = [50, 100, 250]

    private let connection: Connection

    /// Listens on `connection`, the one the follower reads with.
    init(connection: Connection) throws {
        self.connection = connection
        try connection.execute("LISTEN \(NotificationCommitWatch.channel)")
    }

    func wait(stop: StopSignal, until confirmed: () throws -> Bool) throws -> Bool {
        while true {
            // Notifications kept during the last statements come first.
            _ = try connection.receivedNotifications()
            if try confirmed() { return true }
            let ready = pollReadable([stop.descriptor, connection.socketDescriptor], timeoutMilliseconds: -1)
            if ready.contains(0) { return false }
        }
    }

    func recover(from error: any Error, stop: StopSignal) throws -> Bool {
        guard let failure = error as? PostgresError, failure.kind == .connectionLost || !connection.isConnected else { throw error }
        var attempt = 0
        while true {
            let pause = NotificationCommitWatch.backOffMilliseconds[min(attempt, NotificationCommitWatch.backOffMilliseconds.count - 1)]
            if !pollReadable([stop.descriptor], timeoutMilliseconds: pause).isEmpty { return false }
            attempt += 1
            do {
                try connection.reset()
                try connection.execute("LISTEN \(NotificationCommitWatch.channel)")
                return true
            } catch let again as PostgresError where again.kind == .connectionFailed || again.kind == .connectionLost {
                continue
            }
        }
    }
}
