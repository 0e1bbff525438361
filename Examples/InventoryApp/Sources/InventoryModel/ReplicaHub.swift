import StockroomStore

/// Where the model's replica syncs: the one place a screen learns its hub, so that moving from
/// a file hub to a PostgreSQL hub or to `stockroom serve` (``server(_:busyTimeout:)``)
/// changes the value handed to ``InventoryModel/init(pool:location:query:hub:)`` and nothing
/// else.
public struct ReplicaHub: Sendable {
    private let syncing: @Sendable (StorePool) async throws -> SyncReport

    private init(_ syncing: @escaping @Sendable (StorePool) async throws -> SyncReport) {
        self.syncing = syncing
    }

    /// The hub the replica remembers from its first sync; a file that is not a replica yet
    /// refuses to sync with it (`SyncError.notAReplica`).
    ///
    /// - Parameter busyTimeout: how long to wait for the hub's locks, and for another sync
    ///   of the same file, before failing as busy (every change is kept).
    public static func remembered(busyTimeout: Duration = .seconds(5)) -> ReplicaHub {
        ReplicaHub { pool in try await pool.sync(busyTimeout: busyTimeout) }
    }

    /// A hub reached directly: a SQLite file on this machine or a PostgreSQL database. The
    /// first sync attaches the replica to it; later ones check it is still the same hub.
    ///
    /// - Parameter busyTimeout: as for ``remembered(busyTimeout:)``.
    public static func direct(_ hub: DatabaseLocation, busyTimeout: Duration = .seconds(5)) -> ReplicaHub {
        ReplicaHub { pool in try await pool.sync(hub: hub, busyTimeout: busyTimeout) }
    }

    /// A `stockroom serve` hub, reached through `transport` (StockroomHTTP's
    /// `HTTPHubTransport(url:token:caFile:)`, which the app links; this model needs only the
    /// protocol). The replica remembers the server's URL but not its token, so every sync
    /// needs the transport: ``remembered(busyTimeout:)`` refuses a server hub.
    ///
    /// ```swift
    /// let shop = try HTTPHubTransport(url: "https://shop.example:8443/", token: token)
    /// let model = InventoryModel(pool: stall, location: location, hub: .server(shop))
    /// ```
    ///
    /// - Parameter busyTimeout: how long to wait for another sync of the same file.
    public static func server(_ transport: any HubTransport, busyTimeout: Duration = .seconds(5)) -> ReplicaHub {
        ReplicaHub { pool in try await pool.sync(through: transport, busyTimeout: busyTimeout) }
    }

    /// Pushes `pool`'s waiting changes to this hub and pulls the hub's.
    func sync(_ pool: StorePool) async throws -> SyncReport {
        try await syncing(pool)
    }
}
