import LibPQ
import Glibc

extension Connection {
    /// The socket of the connection to the server, to wait on with `poll(2)` for a
    /// notification (``receivedNotifications()``); -1 when the connection is closed.
    public var socketDescriptor: Int32 { pq.PQsocket(handle) }

    /// The channels of the notifications (`NOTIFY`, `pg_notify`) the server has sent this
    /// connection since the last call, in the order sent: reads whatever has arrived on the
    /// socket without waiting (`PQconsumeInput`), then takes each one (`PQnotifies`).
    /// Notifications that arrived during a statement are kept by libpq and returned here too.
    ///
    /// - Throws: ``PostgresError`` of kind ``PostgresError/Kind/connectionLost`` when the
    ///   connection broke (the server stopped or restarted).
    public func receivedNotifications() throws -> [String] {
        guard pq.PQconsumeInput(handle) == 1, isConnected else {
            let message = pq.PQerrorMessage(handle).map { String(cString: $0) } ?? ""
            throw PostgresError(kind: .connectionLost, message: "the connection to \(redactedConnectionString) broke: \(PostgresError.oneLine(message))")
        }
        var channels: [String] = []
        while let notification = pq.PQnotifies(handle) {
            channels.append(String(cString: notification.pointee.relname))
            pq.PQfreemem(notification)
        }
        return channels
    }
}
