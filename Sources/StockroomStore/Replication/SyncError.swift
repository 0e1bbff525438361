import FoundationEssentials

/// Why a sync was refused or could not run. Each leaves both the replica and the hub as they
/// were: every change made on the replica waits for the next sync.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file has no hub to sync with yet: the first sync names one.
    case notAReplica(path: String, attaching: Bool)
    /// The replica is a PostgreSQL database; replicas are SQLite files.
    case replicaOnServer
    /// The hub's file is missing (a drive that is not plugged in?).
    case hubMissing(path: String)
    /// The hub's file is on a network filesystem, where SQLite's locks are not safe.
    case hubOnNetworkFilesystem(path: String, filesystem: String)
    /// The replica is attached to another hub.
    case otherHub(path: String, attachedTo: String, attachedID: UUID, given: String, givenID: UUID)
    /// The hub is itself a replica of another hub.
    case hubIsAReplica(hub: String, of: String)
    /// The replica file is the hub (the same database id).
    case replicaIsTheHub(path: String, id: UUID)
    /// The hub and this replica are at different schema versions.
    case schemaVersions(hub: String, hubVersion: Int, replicaVersion: Int)
    /// Another sync of the same replica holds its lock past the busy timeout.
    case syncRunning(path: String, seconds: String)
    /// The database has no id (its `sync_identity` row was deleted by hand).
    case missingIdentity

    public var description: String {
        switch self {
        case .notAReplica(let path, let attaching):
            attaching
                ? "\(path) is not a replica yet: give the hub to attach it to (`sync --hub FILE` or `--hub postgresql://…`)"
                : "\(path) is not a replica: `sync --hub HUB` attaches it to a hub"
        case .replicaOnServer:
            "a replica is a SQLite file: --db names a PostgreSQL database, which can be a hub (`sync --hub`) but not a replica"
        case .hubMissing(let path):
            "the hub \(path) cannot be reached: there is no such file (a drive that is not plugged in?); nothing was synced, and every change waits for the next sync"
        case .hubOnNetworkFilesystem(let path, let filesystem):
            "the hub \(path) is on a network filesystem (\(filesystem)), where SQLite's locks are not safe: use a PostgreSQL hub, or `stockroom serve` on the machine that holds the file (docs/replicas.md)"
        case .otherHub(let path, let attachedTo, let attachedID, let given, let givenID):
            "\(path) is a replica of another hub (\(attachedTo), id \(attachedID.lowercasedString)), not of \(given) (id \(givenID.lowercasedString)); a replica syncs with one hub only"
        case .hubIsAReplica(let hub, let of):
            "\(hub) is itself a replica (of \(of)): sync with its hub instead; a hub cannot be a replica"
        case .replicaIsTheHub(let path, let id):
            "\(path) is the hub itself (both have id \(id.lowercasedString)): sync a replica file with it, not the hub's own file or a copy of it"
        case .schemaVersions(let hub, let hubVersion, let replicaVersion):
            hubVersion < replicaVersion
                ? "the hub \(hub) is at schema version \(hubVersion) and this replica at \(replicaVersion): run `stockroom --db \(hub) migrate up` on the hub, the older side"
                : "the hub \(hub) is at schema version \(hubVersion) and this replica at \(replicaVersion): run `stockroom migrate up` on the replica with a stockroom that knows version \(hubVersion), the hub's"
        case .syncRunning(let path, let seconds):
            "another sync of \(path) is running, still after \(seconds) s (--busy-timeout); nothing was synced by this one, retry"
        case .missingIdentity:
            "the database has no id (table sync_identity is empty): it was edited by hand"
        }
    }
}

extension SyncError {
    /// The exit code a program reports it with (docs/exit-codes.md).
    package var exitCode: Failure.Code {
        switch self {
        case .hubMissing, .syncRunning: .busy
        case .schemaVersions, .missingIdentity: .dataError
        case .notAReplica, .replicaOnServer, .hubOnNetworkFilesystem, .otherHub, .hubIsAReplica, .replicaIsTheHub: .usage
        }
    }
}
