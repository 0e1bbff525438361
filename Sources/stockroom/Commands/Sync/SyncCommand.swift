import ArgumentParser
import StockroomStore
import Inventory
import TextFormats

/// `stockroom --db FILE sync [--hub HUB]`: pushes this replica's changes to its hub and pulls
/// the hub's (docs/replicas.md).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Push this replica's changes to its hub, then pull the hub's.",
        discussion: """
            FILE (--db) is a SQLite file: new, standalone (its items go up as additions) or \
            already a replica. HUB is the hub's SQLite file, a postgresql:// URI, or the URL \
            of a `stockroom serve` (http:// or https://, with its token from --token-file or \
            STOCKROOM_TOKEN, never the command line; --ca-file for a private CA); the first \
            sync attaches FILE to it, later ones may leave --hub out. A --hub reaching the same \
            hub another way (a moved file, a failover) is remembered; another hub is refused. \
            The remembered URI keeps no password: libpq's passfile, PGPASSWORD or a service \
            supplies it. Every other command works on a replica with no network; only sync \
            reaches the hub. Conflicts become resolving drafts (`draft list`). Exit codes: 0 \
            when it completed, conflicts or not; \(Failure.Code.busy.rawValue) when the hub cannot be reached, is \
            locked past --busy-timeout or is missing, or another sync of FILE runs (every change \
            is kept for the next try), or a server hub answered 5xx; \(Failure.Code.noPermission.rawValue) a server hub \
            needs a token, refused it, or is read-only with changes waiting; \(Failure.Code.software.rawValue) a server hub \
            refused a request as malformed (a bug: please report it); \(Failure.Code.usage.rawValue) and \(Failure.Code.dataError.rawValue) \
            for bad input.
            """,
        subcommands: [SyncNow.self, SyncStatusCommand.self],
        defaultSubcommand: SyncNow.self
    )
}

/// `stockroom sync` itself (the default subcommand, so that `sync status` can be one).
struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Push, then pull (what `stockroom sync` does).",
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The hub: a SQLite file, a postgresql:// URI, or a `stockroom serve` URL (http:// or https://). Needed the first time.", valueName: "hub"),
            completion: .file())
    var hub: String?

    @Option(help: ArgumentHelp("A server hub's token, read from this file (else from STOCKROOM_TOKEN).", valueName: "file"),
            completion: .file())
    var tokenFile: String?

    @Option(help: ArgumentHelp("PEM certificates to trust for an https:// hub, instead of the system's (a private CA).", valueName: "file"),
            completion: .file())
    var caFile: String?

    @Option(help: "Output format.")
    var format: ReportFormat = .text

    @Flag(help: "List the changes that would be pushed, without reaching the hub or changing anything.")
    var dryRun = false

    func validate() throws {
        if let hub {
            if hub.isEmpty { throw ValidationError("--hub must not be empty") }
            if hub.contains("://"), !HubAddress.isServerURL(hub), case .file = DatabaseLocation(hub) {
                throw ValidationError("--hub '\(hub)' is not a hub: give a SQLite file's path, a postgresql:// URI or an http(s):// URL")
            }
        }
        if let caFile, caFile.isEmpty { throw ValidationError("--ca-file must not be empty") }
    }

    func run() throws {
        Failure.startWaiting()
        let path = try SyncNow.replicaPath(database)
        if dryRun { return try listPending(path) }
        let progress = TerminalProgress(label: "sync")
        defer { progress.end() }
        let summary = try ReplicaSync.run(
            path: path, hub: hub.map(Self.hubAddress), busyTimeoutMilliseconds: database.busyTimeoutMilliseconds,
            reachingServer: relay
        ) { step in
            guard progress.isShown else { return }
            switch step {
            case .pushing(let done, let total): progress.show(text: "pushing: \(done) of \(total) changes")
            case .pulling(let done): progress.show(text: "pulling: \(done) items")
            }
        }
        progress.end()
        switch format {
        case .text:
            Output.line("pushed \(summary.pushed), pulled \(summary.pulled); \(summary.conflicts) open conflict\(summary.conflicts == 1 ? "" : "s"), \(summary.pending) waiting")
        case .json:
            Output.line(JSONText.object([
                "pushed": String(summary.pushed), "pulled": String(summary.pulled),
                "conflicts": String(summary.conflicts), "pending": String(summary.pending),
            ]))
        }
    }

    /// The hub asked for: a database, or a server reached through ``relay(to:)``.
    private static func hubAddress(_ hub: String) -> HubAddress {
        HubAddress.isServerURL(hub) ? .serverWithoutTransport(hub) : .database(DatabaseLocation(hub))
    }

    /// The transport to a server hub, asked for or remembered: `stockroom-serve --sync-relay`,
    /// given the token, which a server hub always needs.
    private func relay(to url: String) throws -> any HubTransport {
        guard let token = try TokenSource.token(file: tokenFile) else { throw SyncError.tokenMissing(hub: url) }
        do {
            return try RelayTransport(program: try ServerProgram.programPath(), url: url, token: token, caFile: caFile)
        } catch let error as HubTransportError {
            throw Failure.Message(code: .unavailable, description: "cannot start the HTTP client for \(url): \(error.reason)")
        }
    }

    /// `--dry-run`: each waiting intent, in the order it would be pushed.
    private func listPending(_ path: String) throws {
        let pending = try ReplicaSync.pending(path: path)
        switch format {
        case .text:
            Output.lines(TextTable.lines(header: ["MADE AT", "KIND", "ITEM", "NAME", "CHANGE"], rows: pending.map { waiting in
                let intent = waiting.intent
                let name = intent.replicaCopy?.name ?? MergeRules.replayed(intent.change, on: nil)?.name ?? ""
                return [intent.madeAt, intent.change.case.rawValue, Presentation.shortID(intent.itemID), name, Self.describe(intent.change)]
            }))
        case .json:
            Output.line(JSONText.array(pending.map { waiting in
                let intent = waiting.intent
                return JSONText.object([
                    "id": JSONText.string(intent.id.lowercasedString), "kind": JSONText.string(intent.change.case.rawValue),
                    "itemId": JSONText.string(intent.itemID.lowercasedString), "madeAt": JSONText.string(intent.madeAt),
                    "change": JSONText.string(Self.describe(intent.change)),
                ])
            }))
        }
    }

    /// An intent's change in words, as `--dry-run` lists it.
    static func describe(_ change: IntentChange) -> String {
        switch change {
        case .add(let item): "add: " + Presentation.row(for: item)
        case .set(let changes): Presentation.text(for: ItemEvent.changed(changes))
        case .adjust(let units): "adjust by " + (units > 0 ? "+" : "") + String(units)
        case .delete: "delete"
        case .resolve(_, let choice):
            switch choice {
            case .keepHub: "resolve: keep the hub's value"
            case .delete: "resolve: delete"
            case .item(let item): "resolve: " + Presentation.row(for: item)
            }
        }
    }

    /// The replica's file: `--db` must name a SQLite file.
    static func replicaPath(_ database: DatabaseOptions) throws -> String {
        switch database.locationForWriting() {
        case .file(let path): return path
        case .postgres:
            throw SyncError.replicaOnServer
        }
    }
}

/// `stockroom sync status`: the replica's hub, id, waiting changes, last sync and conflicts.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the hub, this replica's id, its waiting changes, the last sync and open conflicts.",
        discussion: "Reads the replica only: the hub is not reached and the file does not change."
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Output format.")
    var format: RecordFormat = .table

    func run() throws {
        let status = try ReplicaSync.status(path: try SyncNow.replicaPath(database))
        let hub = HubAddress.isServerURL(status.hub) ? status.hub : DatabaseLocation(status.hub).description
        switch format {
        case .table:
            Output.lines(TextTable.lines(header: ["FIELD", "VALUE"], rows: [
                ["hub", hub], ["replica", status.replica.lowercasedString], ["pending", String(status.pending)],
                ["last sync", status.lastSync ?? "never"], ["conflicts", String(status.conflicts)],
            ]))
        case .json:
            Output.line(JSONText.object([
                "hub": JSONText.string(hub), "replica": JSONText.string(status.replica.lowercasedString),
                "pending": String(status.pending), "lastSync": status.lastSync.map(JSONText.string) ?? "null",
                "conflicts": String(status.conflicts),
            ]))
        }
    }
}
