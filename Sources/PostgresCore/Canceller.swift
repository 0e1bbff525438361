import LibPQ

extension Connection {
    /// A handle that asks the server to stop this connection's running statement, usable from
    /// any thread (a Ctrl-C handler, a watchdog) while the connection's own thread waits.
    public func canceller() throws -> Canceller {
        guard let cancel = pq.PQgetCancel(handle) else {
            throw PostgresError(kind: .connectionLost, message: "the connection is not open: nothing to cancel")
        }
        return Canceller(handle: cancel, pq: pq)
    }
}

/// Stops the statement running on a connection (PQcancel): the statement fails with a
/// ``PostgresError`` of kind ``PostgresError/Kind/timedOut`` (57014) and the connection stays
/// usable. Asking when nothing runs does nothing.
public final class Canceller: @unchecked Sendable {
    // PQcancel is documented as safe to call from any thread (even a signal handler) with its
    // own PGcancel object, which is what makes this handle Sendable.
    private let handle: OpaquePointer
    private let pq: LibPQTable

    init(handle: OpaquePointer, pq: LibPQTable) {
        self.handle = handle
        self.pq = pq
    }

    deinit { pq.PQfreeCancel(handle) }

    /// Sends the cancel request; returns false (with libpq's reason) when it could not be sent.
    @discardableResult
    public func cancel() -> (sent: Bool, reason: String?) {
        var buffer = [CChar](repeating: 0, count: 256)
        let sent = pq.PQcancel(handle, &buffer, Int32(buffer.count)) == 1
        return (sent, sent ? nil : String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
