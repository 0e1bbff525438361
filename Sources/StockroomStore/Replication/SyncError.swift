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
    /// The hub is a server (`http://`, `https://`) and no ``HubTransport`` was given to reach it.
    case transportNeeded(hub: String)
    /// A server hub needs a token, and none was given.
    case tokenMissing(hub: String)
    /// The server refused the token (401, 403).
    case hubRefusedToken(hub: String, detail: String)
    /// The server is read-only (`serve --read-only`) and changes wait to be pushed.
    case hubReadOnly(hub: String, waiting: Int?)
    /// The server could not be reached, or the connection broke.
    case hubUnreachable(hub: String, reason: String)
    /// The server answered with a 5xx.
    case hubFailed(hub: String, status: Int, detail: String)
    /// The server does not answer the sync protocol (404 on `/api/sync`).
    case notAHub(hub: String)
    /// The server speaks another version of the sync protocol.
    case protocolVersions(hub: String, hubVersion: Int, replicaVersion: Int)
    /// The server refused the sync for a reason it names (409: the two sides disagree).
    case hubRefused(hub: String, detail: String)
    /// The server refused a request as malformed or too large: a bug in one of the two.
    case requestRefused(hub: String, request: String, status: Int, detail: String)
    /// The server's answer is not what the protocol promises: a bug in one of the two.
    case hubAnswer(hub: String, reason: String)

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
        case .transportNeeded(let hub):
            "the hub \(hub) is a server: reach it through a HubTransport (`sync(through:)`, StockroomHTTP's HTTPHubTransport)"
        case .tokenMissing(let hub):
            "the hub \(hub) needs a token: give --token-file FILE or set STOCKROOM_TOKEN (never on the command line); nothing was synced"
        case .hubRefusedToken(let hub, let detail):
            "the hub \(hub) refused the token: \(detail); nothing was synced, and every change waits for the next sync"
        case .hubReadOnly(let hub, let waiting):
            "the hub \(hub) is read-only (serve --read-only): replicas may pull but not push\(waiting.map { ", and \($0) change\($0 == 1 ? "" : "s") wait\($0 == 1 ? "s" : "") to be pushed" } ?? ""); nothing was synced, and every change is kept"
        case .hubUnreachable(let hub, let reason):
            "the hub \(hub) cannot be reached: \(reason); nothing more was synced, and every change not yet pushed waits for the next sync"
        case .hubFailed(let hub, let status, let detail):
            "the hub \(hub) failed (HTTP \(status)): \(detail); every change not yet pushed waits for the next sync"
        case .notAHub(let hub):
            "\(hub) does not answer Stockroom's sync protocol (404 on /api/sync): it is not `stockroom serve`, or one older than sync; nothing was synced"
        case .protocolVersions(let hub, let hubVersion, let replicaVersion):
            "the hub \(hub) speaks sync protocol version \(hubVersion) and this replica version \(replicaVersion): upgrade the older side's stockroom"
        case .hubRefused(let hub, let detail):
            "the hub \(hub) refused the sync: \(detail)"
        case .requestRefused(let hub, let request, let status, let detail):
            "the hub \(hub) refused \(request) as malformed (HTTP \(status): \(detail)): this is a bug in stockroom, please report it; every change not yet pushed is kept"
        case .hubAnswer(let hub, let reason):
            "the hub \(hub) answered what the sync protocol does not allow (\(reason)): this is a bug in stockroom, please report it; every change not yet pushed is kept"
        }
    }
}

extension SyncError {
    /// The exit code a program reports it with (docs/exit-codes.md).
    package var exitCode: Failure.Code {
        switch self {
        case .hubMissing, .syncRunning, .hubUnreachable, .hubFailed: .busy
        case .schemaVersions, .missingIdentity, .notAHub, .protocolVersions, .hubRefused: .dataError
        case .notAReplica, .replicaOnServer, .hubOnNetworkFilesystem, .otherHub, .hubIsAReplica, .replicaIsTheHub, .transportNeeded: .usage
        case .tokenMissing, .hubRefusedToken, .hubReadOnly: .noPermission
        case .requestRefused, .hubAnswer: .software
        }
    }
}
