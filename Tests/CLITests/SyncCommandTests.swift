import Foundation
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom sync` with real processes, real files and a real PostgreSQL server, on both kinds
/// of hub: what travels, what adds up, what becomes a conflict, and what is refused with
/// nothing changed on either side.
@Suite struct SyncCommandTests {
    /// A hub (a SQLite file, or a scratch schema of the tests' PostgreSQL server) and the
    /// replica files synced with it, in one folder.
    final class World: @unchecked Sendable {
        let directory = TemporaryDirectory()
        let schema: PostgresScratchSchema?
        /// The hub's database: what the tests read the hub's state from.
        let hub: String
        /// `stockroom serve` on the hub, for a served kind: replicas sync through it.
        let server: BackgroundProcess?
        /// What `sync --hub` names: the hub's database, or the server's URL.
        let hubArgument: String
        /// The token's options for a served hub (none for a direct one).
        let tokenArguments: [String]

        init(_ kind: HubKind) throws {
            schema = kind.postgres ? try PostgresScratchSchema() : nil
            hub = schema?.uri ?? directory.path("hub.sqlite")
            // The hub exists, as an ordinary database (its first write creates it).
            try Self.expectSuccess(on: hub, "items", "list")
            if !kind.postgres { try Self.expectSuccess(on: hub, "migrate", "up") }
            if kind.served {
                let tokenFile = directory.path("token")
                try "sync-token-0123456789abcdef\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
                chmod(tokenFile, 0o600)
                let process = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", hub, "--port", "0", "--token-file", tokenFile],
                                                    deadlineSeconds: 1_200)
                guard let printed = process.readLine() else { throw ServerDidNotStart(stderr: process.wait().stderr) }
                hubArgument = String(printed.prefix { $0 != "?" })
                tokenArguments = ["--token-file", tokenFile]
                server = process
            } else {
                hubArgument = hub
                tokenArguments = []
                server = nil
            }
        }

        struct ServerDidNotStart: Error { let stderr: String }

        convenience init(postgres: Bool) throws {
            try self.init(postgres ? .postgres : .file)
        }

        /// The arguments of a sync with this world's hub: `--hub` unless `hub` is false, and
        /// the token a served hub needs every time.
        func syncArguments(hub: Bool = true) -> [String] {
            ["sync"] + (hub ? ["--hub", hubArgument] : []) + tokenArguments
        }

        func replica(_ name: String) -> String { directory.path(name + ".sqlite") }

        /// Runs `stockroom --db DB ARGUMENTS`.
        @discardableResult
        func run(_ db: String, _ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
            try Processes.stockroom(["--db", db] + arguments, environment: environment)
        }

        /// `sync --format json` of `replica`, expected to succeed, as its counts.
        @discardableResult
        func sync(_ replica: String, hub: Bool = true) throws -> [String: Int] {
            let result = try run(replica, arguments: syncArguments(hub: hub) + ["--format", "json"])
            #expect(result.status == 0, "\(result)")
            return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Int]) ?? [:]
        }

        func run(_ db: String, arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
            try Processes.stockroom(["--db", db] + arguments, environment: environment)
        }

        /// Adds an item and returns its id.
        func add(_ db: String, _ name: String, quantity: Int) throws -> String {
            let result = try run(db, "items", "add", "--name", name, "--quantity", String(quantity))
            #expect(result.status == 0, "\(result)")
            return result.output
        }

        /// The item's quantity in stock (0 when out of stock), or nil when there is no such item.
        func quantity(_ db: String, _ id: String) throws -> Int? {
            let result = try run(db, "items", "show", id, "--format", "json")
            guard result.status == 0 else { return nil }
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let status = object?["status"] as? [String: Any]
            return status?["quantity"] as? Int ?? 0
        }

        /// `export --format jsonl`, its lines sorted: what converged databases hold alike.
        func export(_ db: String) throws -> [String] {
            let result = try run(db, "export", "--format", "jsonl")
            #expect(result.status == 0, "\(result)")
            return result.stdout.split(separator: "\n").map(String.init).sorted()
        }

        private static func expectSuccess(on db: String, _ arguments: String...) throws {
            let result = try Processes.stockroom(["--db", db] + arguments)
            #expect(result.status == 0, "\(result)")
        }
    }

    /// Where the hub is: a file or a PostgreSQL database, reached directly or through
    /// `stockroom serve` (issue 36: the same rules and results either way).
    enum HubKind: String, CaseIterable, CustomStringConvertible {
        case file, postgres
        case servedFile = "served file", servedPostgres = "served postgres"

        var postgres: Bool { self == .postgres || self == .servedPostgres }
        var served: Bool { self == .servedFile || self == .servedPostgres }
        var description: String { rawValue }
    }

    static let hubKinds = HubKind.allCases

    @Test("A new replica and a standalone file attach, push their items as additions, and converge with the hub", arguments: hubKinds)
    func attachAndConverge(kind: HubKind) throws {
        let world = try World(kind)
        let onHub = try world.add(world.hub, "Hammer", quantity: 5)
        let stall = world.replica("stall"), van = world.replica("van")
        let nails = try world.add(stall, "Nails", quantity: 100)

        let first = try world.sync(stall)
        #expect(first["pushed"] == 1 && first["conflicts"] == 0 && first["pending"] == 0, "\(first)")
        let second = try world.sync(van)
        #expect(second["pushed"] == 0 && second["pulled"] == 2, "\(second)")
        try world.sync(stall, hub: false)

        for db in [world.hub, stall, van] {
            #expect(try world.quantity(db, onHub) == 5)
            #expect(try world.quantity(db, nails) == 100)
        }
        let hubExport = try world.export(world.hub)
        #expect(hubExport.count == 2)
        #expect(try world.export(stall) == hubExport)
        #expect(try world.export(van) == hubExport)
    }

    @Test("A new replica's first pull loads the hub as an import into an empty file does: afterwards it has a new file's schema, one 'added' event per item, search, and a healthy check",
          arguments: [HubKind.file, .servedPostgres])
    func firstPullOfANewReplica(kind: HubKind) throws {
        let world = try World(kind)
        // More items than one page of a pull (1,000), so that the load spans pages.
        let names = (0..<1_020).map { "Crate \(String(format: "%04d", $0))" }
        let input = world.directory.path("items.csv")
        try ("name,status,quantity\n" + names.enumerated().map { "\($1),in_stock,\($0 % 7 + 1)" }.joined(separator: "\n") + "\n")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let imported = try world.run(world.hub, "import", input, "--format", "csv")
        #expect(imported.status == 0, "\(imported)")

        let stall = world.replica("stall"), blank = world.replica("blank")
        let synced = try world.sync(stall)
        #expect(synced["pulled"] == names.count && synced["pending"] == 0, "\(synced)")
        try world.run(blank, "migrate", "up")

        // The secondary indexes set aside for the load are all back, as a new file has them.
        let schema = "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        #expect(try Processes.sqlite3(stall, schema).output == Processes.sqlite3(blank, schema).output)
        let history = try Processes.sqlite3(stall, "SELECT count(*), count(DISTINCT item_id), min(kind), max(kind), max(position) FROM item_events").output
        #expect(history == "\(names.count)|\(names.count)|added|added|\(names.count)")
        #expect(try Processes.sqlite3(stall, "SELECT count(*) FROM sync_intents").output == "0")
        let found = try world.run(stall, "items", "list", "--search", "rate 1019", "--format", "json")
        #expect(found.status == 0 && found.stdout.contains("Crate 1019"), "\(found)")
        let check = try world.run(stall, "check")
        #expect(check.status == 0, "\(check)")
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("A change made on a replica with no network reaches the hub and every other replica, whoever made it (the sqlite3 shell too)", arguments: hubKinds)
    func changesTravel(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall"), van = world.replica("van")
        let id = try world.add(stall, "Rope", quantity: 7)
        try world.sync(stall)
        try world.sync(van)

        #expect(try world.run(stall, "items", "update", id, "--name", "Rope, 10 m").status == 0)
        _ = try Processes.sqlite3(stall, "UPDATE items SET color = 'red' WHERE id = '\(id)'")
        #expect(try world.run(stall, "sync", "status", "--format", "json").stdout.contains("\"pending\":2"))
        let pushed = try world.sync(stall)
        #expect(pushed["pushed"] == 2, "\(pushed)")
        try world.sync(van)

        let shown = try world.run(van, "items", "show", id, "--format", "json").stdout
        #expect(shown.contains("\"name\":\"Rope, 10 m\"") && shown.contains("\"color\":\"red\""), "\(shown)")
        #expect(try world.export(van) == world.export(world.hub))
    }

    @Test("`sync status` reads the replica only: hub without password, id, pending, last sync, conflicts")
    func statusReadsTheReplicaOnly() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Tape", quantity: 3)
        try world.sync(stall)
        _ = try world.add(stall, "Glue", quantity: 2)
        let before = try DatabaseSnapshot.of(stall)
        let status = try world.run(stall, "sync", "status", "--format", "json")
        #expect(status.status == 0, "\(status)")
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(Set(object.keys) == ["hub", "replica", "pending", "lastSync", "conflicts"])
        #expect(object["pending"] as? Int == 1)
        #expect(object["conflicts"] as? Int == 0)
        #expect((object["lastSync"] as? String)?.hasSuffix("Z") == true)
        #expect((object["hub"] as? String)?.hasSuffix("hub.sqlite") == true)
        #expect(try DatabaseSnapshot.of(stall) == before)
    }

    @Test("A PostgreSQL hub's URI is remembered without its password")
    func rememberedURIKeepsNoPassword() throws {
        let world = try World(postgres: true)
        let stall = world.replica("stall")
        // The tests' server trusts local connections: a password in the URI is accepted and
        // ignored, which is what lets this test see whether it is kept.
        let withPassword = world.hub.replacingOccurrences(of: "postgresql://stockroom@", with: "postgresql://stockroom:s3cret@")
        #expect(withPassword != world.hub, "the URI has the expected shape: \(world.hub)")
        #expect(try world.run(stall, "sync", "--hub", withPassword).status == 0)
        let remembered = try Processes.sqlite3(stall, "SELECT hub_uri FROM sync_replica").output
        #expect(!remembered.contains("s3cret") && remembered.contains("stockroom@"), "\(remembered)")
        #expect(try world.run(stall, "sync").status == 0)
    }

    @Test("A hub that cannot be reached exits 75 and keeps every change for the next try", arguments: hubKinds)
    func unreachableHubKeepsEverything(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Chalk", quantity: 4)
        try world.sync(stall)
        #expect(try world.run(stall, "items", "update", id, "--name", "Chalk, white").status == 0)

        let gone = switch kind {
        case .postgres: "postgresql://stockroom@/nowhere?host=\(world.directory.path("no-socket"))"
        case .file: world.directory.path("unplugged.sqlite")
        case .servedFile, .servedPostgres: "http://127.0.0.1:1/"
        }
        let before = try DatabaseSnapshot.of(stall)
        let refused = try world.run(stall, arguments: ["sync", "--hub", gone] + world.tokenArguments)
        expectFailure(refused, code: .busy)
        #expect(try DatabaseSnapshot.of(stall) == before, "a refused sync changed the replica")
        #expect(try world.sync(stall)["pushed"] == 1)
        #expect(try world.run(world.hub, "items", "show", id).stdout.contains("Chalk, white"))
    }

    @Test("Refusals change nothing on either side: no hub yet, a PostgreSQL replica, a malformed hub, another hub, a hub that is a replica, the hub itself")
    func refusals() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Wire", quantity: 9)
        let hubBefore = try DatabaseSnapshot.of(world.hub)
        func refuse(_ db: String, _ arguments: [String], code: Failure.Code, mentioning text: String) throws {
            let before = try DatabaseSnapshot.of(db)
            let result = try world.run(db, arguments: arguments)
            expectFailure(result, code: code, mentioning: text)
            #expect(result.stdout.isEmpty)
            #expect(try DatabaseSnapshot.of(db) == before, "\(arguments) changed \(db)")
            #expect(try DatabaseSnapshot.of(world.hub) == hubBefore, "\(arguments) changed the hub")
        }
        try refuse(stall, ["sync"], code: .usage, mentioning: "not a replica yet")
        try refuse(stall, ["sync", "--hub", "ftp://example.com/hub"], code: .usage, mentioning: "is not a hub")
        try refuse(stall, ["sync", "status"], code: .usage, mentioning: "not a replica")
        try refuse(stall, ["sync", "--hub", stall], code: .usage, mentioning: "is the hub itself")

        try world.sync(stall)
        let hubAfterAttach = try DatabaseSnapshot.of(world.hub)
        let otherHub = world.directory.path("other-hub.sqlite")
        #expect(try world.run(otherHub, "migrate", "up").status == 0)
        let before = try DatabaseSnapshot.of(stall)
        expectFailure(try world.run(stall, "sync", "--hub", otherHub), code: .usage, mentioning: "replica of another hub")
        #expect(try DatabaseSnapshot.of(stall) == before)
        expectFailure(try world.run(otherHub, "sync", "--hub", stall), code: .usage, mentioning: "is itself a replica")
        #expect(try DatabaseSnapshot.of(world.hub) == hubAfterAttach)
    }

    @Test("A hub file on a network filesystem (a real mount the kernel reports as sshfs) is refused, naming it, with nothing created or changed")
    func hubOnANetworkFilesystem() throws {
        let world = try World(postgres: false)
        let mountpoint = world.directory.path("share")
        try FileManager.default.createDirectory(atPath: mountpoint, withIntermediateDirectories: false)
        let script = Processes.packageRoot.appending(path: "Tests/Tools/fake_network_fs.py").path
        let share = try BackgroundProcess("/usr/bin/python3", [script, mountpoint, "hub.sqlite"])
        defer {
            let ended = share.wait()
            #expect(ended.status == 0, "\(ended)")
            let left = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
            #expect(!left.contains(" \(mountpoint) "), "the share is still mounted")
        }
        // Root and /dev/fuse, as on the test machines: without them there is nothing to test.
        try #require(share.readLine() == "mounted")
        let mounted = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        #expect(mounted.contains(" \(mountpoint) ") && mounted.contains("fuse.sshfs"))
        let remoteHub = mountpoint + "/hub.sqlite"

        // A new replica: refused before its file is created.
        let van = world.replica("van")
        let refused = try world.run(van, "sync", "--hub", remoteHub)
        expectFailure(refused, code: .usage, mentioning: "the hub \(remoteHub) is on a network filesystem (fuse.sshfs)")
        #expect(refused.errorMessage.contains("PostgreSQL hub") && refused.errorMessage.contains("stockroom serve"))
        #expect(!FileManager.default.fileExists(atPath: van))

        // A replica whose hub file is moved onto the share: refused, its changes kept.
        let stall = world.replica("stall")
        _ = try world.add(stall, "Rope", quantity: 4)
        try world.sync(stall)
        _ = try world.add(stall, "Twine", quantity: 2)
        let before = try DatabaseSnapshot.of(stall)
        expectFailure(try world.run(stall, "sync", "--hub", remoteHub), code: .usage, mentioning: "network filesystem")
        #expect(try DatabaseSnapshot.of(stall) == before)
    }

    @Test("A replica whose own id was deleted by hand: `sync status` and `--dry-run` still read it, another hub is still refused as such, and `sync` says what is wrong, changing nothing")
    func replicaWithoutItsOwnID() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Clamp", quantity: 3)
        try world.sync(stall)
        _ = try world.add(stall, "Vice", quantity: 1)
        _ = try Processes.sqlite3(stall, "DELETE FROM sync_identity")
        let before = try DatabaseSnapshot.of(stall)

        let status = try world.run(stall, "sync", "status", "--format", "json")
        #expect(status.status == 0 && status.stdout.contains("\"pending\":1"), "\(status)")
        let dryRun = try world.run(stall, "sync", "--dry-run")
        #expect(dryRun.status == 0 && dryRun.stdout.contains("Vice"), "\(dryRun)")
        let otherHub = world.directory.path("other-hub.sqlite")
        #expect(try world.run(otherHub, "migrate", "up").status == 0)
        expectFailure(try world.run(stall, "sync", "--hub", otherHub), code: .usage, mentioning: "replica of another hub")
        expectFailure(try world.run(stall, "sync"), code: .dataError, mentioning: "the database has no id")
        #expect(try DatabaseSnapshot.of(stall) == before)
    }

    @Test("A hub at an older schema version is refused in one line naming both versions")
    func olderHubSchema() throws {
        let world = try World(postgres: false)
        let older = world.directory.path("older-hub.sqlite")
        #expect(try world.run(older, "migrate", "up", "--to", "10").status == 0)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Bolt", quantity: 1)
        let before = try DatabaseSnapshot.of(older), replicaBefore = try DatabaseSnapshot.of(stall)
        let result = try world.run(stall, "sync", "--hub", older)
        expectFailure(result, code: .dataError, mentioning: "schema version 10")
        #expect(result.errorMessage.contains("migrate up"), "\(result)")
        #expect(try DatabaseSnapshot.of(older) == before)
        #expect(try DatabaseSnapshot.of(stall) == replicaBefore)
    }

    @Test("A PostgreSQL hub at an older or a newer schema version is refused naming both versions, with nothing migrated on the hub nor changed on the replica")
    func postgresHubAtOtherSchemaVersions() throws {
        let world = try World(postgres: true)
        let older = try PostgresScratchSchema()
        #expect(try world.run(older.uri, "migrate", "up", "--to", "10").status == 0)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Funnel", quantity: 2)
        let before = try DatabaseSnapshot.of(stall)
        let versions = "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations"
        let olderVersions = try older.psql(versions).output

        let refused = try world.run(stall, "sync", "--hub", older.uri)
        expectFailure(refused, code: .dataError, mentioning: "schema version 10")
        #expect(refused.errorMessage.contains("migrate up"), "\(refused)")
        #expect(try older.psql(versions).output == olderVersions, "the hub was migrated")
        #expect(try DatabaseSnapshot.of(stall) == before)

        try world.sync(stall)
        _ = try world.schema!.psql("INSERT INTO schema_migrations VALUES (99, 'from_the_future', 'x', '2027-01-01T00:00:00Z')")
        _ = try world.add(stall, "Sieve", quantity: 1)
        let beforeNewer = try DatabaseSnapshot.of(stall)
        let newer = try world.run(stall, "sync")
        expectFailure(newer, code: .dataError, mentioning: "schema version 99")
        #expect(try DatabaseSnapshot.of(stall) == beforeNewer)
    }

    @Test("A replica file copied to another path registers there as a new replica, keeping its unpushed changes, each applied once",
          arguments: [HubKind.file, .servedFile])
    func copiedReplicaRegistersAnew(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Paint", quantity: 10)
        try world.sync(stall)
        #expect(try world.run(stall, "items", "update", id, "--name", "Paint, blue").status == 0)
        let copy = world.replica("copy")
        try FileManager.default.copyItem(atPath: stall, toPath: copy)
        let firstID = try Processes.sqlite3(stall, "SELECT replica_id FROM sync_replica").output

        #expect(try world.sync(copy)["pushed"] == 1)
        let copyID = try Processes.sqlite3(copy, "SELECT replica_id FROM sync_replica").output
        #expect(copyID != firstID && copyID.count == 36)
        // The same intent, made before the copy, reaches the hub from both files: applied once.
        #expect(try world.sync(stall)["pushed"] == 0)
        #expect(try Processes.sqlite3(world.hub, "SELECT count(*) FROM sync_applied").output == "2")
    }

    @Test("A sync killed just after the hub committed a batch, before the replica recorded it, applies each intent once when run again", arguments: hubKinds)
    func killedAfterHubCommit(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall")
        var ids: [String] = []
        for number in 1...3 { ids.append(try world.add(stall, "Box \(number)", quantity: number)) }
        let killed = try world.run(stall, arguments: world.syncArguments(), environment: ["STOCKROOM_SYNC_KILL_AT": "after-hub-commit"])
        #expect(killed.status == 128 + SIGKILL, "\(killed)")
        #expect(try world.run(stall, "sync", "status", "--format", "json").stdout.contains("\"pending\":3"))

        let again = try world.sync(stall, hub: false)
        #expect(again["pushed"] == 0 && again["pending"] == 0, "the hub had applied them all: \(again)")
        #expect(try world.export(world.hub).count == 3)
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("Two syncs of one replica at once: the second waits for the first's lock, then is refused with 75 past --busy-timeout")
    func oneSyncAtATime() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Fuse", quantity: 2)
        // Another sync holds the replica's lock: this process plays it, with the same flock.
        let descriptor = open(stall, O_RDONLY)
        #expect(descriptor >= 0)
        #expect(flock(descriptor, LOCK_EX) == 0)
        let refused = try world.run(stall, "sync", "--hub", world.hub, "--busy-timeout", "0.3")
        expectFailure(refused, code: .busy, mentioning: "another sync")
        flock(descriptor, LOCK_UN)
        close(descriptor)
        #expect(try world.sync(stall)["pushed"] == 1)
    }

    @Test("A replica restored in place from an earlier backup syncs on, re-applying nothing the hub applied and losing nothing it did not", arguments: hubKinds)
    func restoredReplica(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Lamp", quantity: 10)
        try world.sync(stall)
        #expect(try world.run(stall, "items", "update", id, "--name", "Lamp, desk").status == 0)
        let backup = world.directory.path("yesterday.sqlite")
        #expect(try world.run(stall, "backup", backup).status == 0)
        try world.sync(stall)
        #expect(try world.run(stall, "restore", backup, "--force").status == 0)
        #expect(try world.run(stall, "items", "update", id, "--location", "Shelf 2").status == 0)

        let after = try world.sync(stall, hub: false)
        #expect(after["pushed"] == 1, "only the change made after the restore is new: \(after)")
        let shown = try world.run(world.hub, "items", "show", id, "--format", "json").stdout
        #expect(shown.contains("Lamp, desk") && shown.contains("Shelf 2"), "\(shown)")
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("An item changed several times in one push is one history event per change on the hub, each carrying the replica and its own intent, in the replica's order", arguments: hubKinds)
    func severalChangesOfOneItemInOnePush(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Tape", quantity: 10)
        let other = try world.add(stall, "Glue", quantity: 4)
        try world.sync(stall)
        for units in ["-1", "-2", "5"] { #expect(try world.run(stall, "items", "adjust", id, "--by", units).status == 0) }
        #expect(try world.run(stall, "items", "update", id, "--name", "Tape, wide").status == 0)
        #expect(try world.run(stall, "items", "adjust", id, "--by", "-3").status == 0)
        #expect(try world.run(stall, "items", "delete", other).status == 0)
        let status = try world.run(stall, "sync", "status", "--format", "json")
        let replica = try #require((try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["replica"] as? String)

        let pushed = try world.sync(stall)
        #expect(pushed["pushed"] == 6, "\(pushed)")
        #expect(try world.quantity(world.hub, id) == 9, "every adjustment counted once: 10 - 1 - 2 + 5 - 3")
        #expect(try world.quantity(world.hub, other) == nil)
        let history = try world.run(world.hub, "items", "history", id, "--format", "json")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], "\(history)")
        try #require(events.count == 6, "the addition and five changes: \(history)")
        #expect(events.allSatisfy { $0["origin"] as? String == replica }, "\(history)")
        let intents = events.compactMap { $0["intentId"] as? String }
        #expect(intents.count == 6 && Set(intents).count == 6, "each event its own intent: \(history)")
        #expect(events.map { $0["version"] as? Int } == [1, 2, 3, 4, 5, 6], "\(history)")
        #expect(events.map { $0["adjustedBy"] as? Int } == [nil, -1, -2, 5, nil, -3], "each adjustment its own units: \(history)")
        let shown = try world.run(world.hub, "items", "show", id, "--format", "json").stdout
        #expect(shown.contains("\"name\":\"Tape, wide\""), "\(shown)")
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("A long sync shows its progress on a terminal, pushing in batches and pulling in pages, and nothing when stderr is not one")
    func progressShowsOnATerminalOnly() throws {
        let world = try World(postgres: false)
        // More than one batch to push (500 intents each) and more than one page to pull
        // (1,000 items each): 2,500 items on the hub, 600 in a standalone file that attaches.
        let fill = { (db: String, count: Int, prefix: String) throws in
            let result = try Processes.sqlite3(db, """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO items (id, name, status, quantity, created_at, updated_at)
                SELECT printf('\(prefix)-0000-4000-8000-%012d', i), printf('Part %d', i), 'in_stock', i,
                       '2026-11-28T00:00:00.000Z', '2026-11-28T00:00:00.000Z' FROM n;
                """)
            #expect(result.status == 0, "\(result)")
        }
        try fill(world.hub, 2_500, "00000001")
        let stall = world.replica("stall")
        #expect(try world.run(stall, "migrate", "up").status == 0)
        try fill(stall, 600, "00000002")

        let terminal = try PseudoTerminalProcess(Processes.stockroomPath, ["--db", stall, "sync", "--hub", world.hub])
        _ = try terminal.expect("sync: pushing: 500 of 600 changes")
        _ = try terminal.expect("sync: pushing: 600 of 600 changes")
        _ = try terminal.expect("sync: pulling: 3100 items")
        _ = try terminal.expect("pushed 600, pulled 3100; 0 open conflicts, 0 waiting")
        #expect(try terminal.waitForExit() == 0)

        let van = world.replica("van")
        let piped = try world.run(van, "sync", "--hub", world.hub)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "no progress in a pipe: \(piped)")
        #expect(piped.stdout == "pushed 0, pulled 3100; 0 open conflicts, 0 waiting\n", "\(piped)")
    }

    @Test("A replica's wrong clock changes nothing: no rule reads the time an intent was made")
    func wrongClock() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall"), van = world.replica("van")
        let id = try world.add(stall, "Saw", quantity: 3)
        try world.sync(stall)
        try world.sync(van)
        #expect(try world.run(stall, "items", "update", id, "--name", "Saw, small").status == 0)
        #expect(try world.run(van, "items", "update", id, "--location", "Van").status == 0)
        // The stall's clock is a century behind, the van's a century ahead (the clock is the
        // outbox's recorded time: what a wrong clock writes there).
        _ = try Processes.sqlite3(stall, "UPDATE sync_intents SET made_at = '1926-01-01T00:00:00.000Z'")
        _ = try Processes.sqlite3(van, "UPDATE sync_intents SET made_at = '2126-01-01T00:00:00.000Z'")
        try world.sync(van)
        try world.sync(stall)
        try world.sync(van)
        let shown = try world.run(world.hub, "items", "show", id, "--format", "json").stdout
        #expect(shown.contains("Saw, small") && shown.contains("\"location\":\"Van\""), "\(shown)")
        #expect(try world.export(stall) == world.export(world.hub))
        #expect(try world.export(van) == world.export(world.hub))
    }
}

extension SyncCommandTests {
    @Test("`copy` into a replica is refused, with nothing changed: it would bypass what the replica sends its hub")
    func copyIntoAReplicaIsRefused() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Hinge", quantity: 6)
        try world.sync(stall)
        let before = try DatabaseSnapshot.of(stall)
        let refused = try Processes.stockroom(["copy", "--from", world.hub, "--to", stall, "--force"])
        expectFailure(refused, code: .usage, mentioning: "is a replica of")
        #expect(try DatabaseSnapshot.of(stall) == before)
    }
}

extension SyncCommandTests {
    /// The open conflicts' drafts of `db`, as `draft list --format json` shows them.
    static func conflictDrafts(_ world: World, _ db: String) throws -> [[String: Any]] {
        let listed = try world.run(db, "draft", "list", "--format", "json")
        let drafts = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return drafts.filter { ($0["draft"] as? [String: Any])?["case"] as? String == "resolving" || $0["case"] as? String == "resolving" }
    }

    @Test("Two stalls sell offline: every sale counts, and an oversold item is a conflict draft with the missing units, on the hub and on every replica", arguments: hubKinds)
    func oversoldReachesEveryone(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall"), van = world.replica("van")
        let id = try world.add(world.hub, "Lantern", quantity: 4)
        try world.sync(stall)
        try world.sync(van)
        #expect(try world.run(stall, "items", "adjust", id, "--by", "-3").status == 0)
        #expect(try world.run(van, "items", "adjust", id, "--by", "-3").status == 0)
        #expect(try world.sync(stall)["conflicts"] == 0)
        let second = try world.sync(van)
        #expect(second["conflicts"] == 1, "\(second)")
        try world.sync(stall)

        #expect(try world.quantity(world.hub, id) == 0, "both sales left the shelf: out of stock, not 1")
        for db in [world.hub, stall, van] {
            let conflicts = try Self.conflictDrafts(world, db)
            #expect(conflicts.count == 1, "\(db): \(conflicts)")
            let text = try world.run(db, "draft", "list", "--format", "json").stdout
            #expect(text.contains("\"missing\":2") && text.contains("oversold"), "\(db): \(text)")
        }
        // The hub's history names the replica and the intent of each sale.
        let history = try world.run(world.hub, "items", "history", id, "--format", "json").stdout
        let replicaIDs = try [stall, van].map { try Processes.sqlite3($0, "SELECT replica_id FROM sync_replica").output }
        for replica in replicaIDs { #expect(history.contains("\"origin\":\"\(replica)\""), "\(history)") }
        #expect(history.contains("\"adjustedBy\":-3"), "\(history)")
    }

    @Test("A conflict resolved on a replica is an intent: after the next syncs it is gone everywhere and the hub holds the choice", arguments: hubKinds)
    func resolvedOnAReplica(kind: HubKind) throws {
        let world = try World(kind)
        let stall = world.replica("stall"), van = world.replica("van")
        let id = try world.add(world.hub, "Kettle", quantity: 2)
        try world.sync(stall)
        try world.sync(van)
        #expect(try world.run(stall, "items", "update", id, "--name", "Kettle, steel").status == 0)
        #expect(try world.run(world.hub, "items", "update", id, "--name", "Kettle, copper").status == 0)
        #expect(try world.sync(stall)["conflicts"] == 1)
        try world.sync(van)
        let conflict = try #require(try Self.conflictDrafts(world, van).first)
        let draftID = try #require(conflict["id"] as? String)
        // At the van, a person keeps the stall's name, edited.
        #expect(try world.run(van, "draft", "edit", draftID, "--name", "Kettle, steel 1 l").status == 0)
        #expect(try world.run(van, "draft", "save", draftID).status == 0)
        #expect(try Self.conflictDrafts(world, van).isEmpty)
        #expect(try world.run(van, "items", "show", id).stdout.contains("Kettle, steel 1 l"), "the replica shows its choice at once")

        try world.sync(van)
        try world.sync(stall)
        for db in [world.hub, stall, van] {
            #expect(try Self.conflictDrafts(world, db).isEmpty, "\(db)")
            #expect(try world.run(db, "items", "show", id).stdout.contains("Kettle, steel 1 l"), "\(db)")
        }
        #expect(try world.export(stall) == world.export(world.hub))
        #expect(try world.export(van) == world.export(world.hub))
    }

    @Test("An intent that changes nothing is recorded as applied and writes no history event")
    func nothingToChange() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall"), van = world.replica("van")
        let id = try world.add(world.hub, "Broom", quantity: 1)
        try world.sync(stall)
        try world.sync(van)
        for replica in [stall, van] { #expect(try world.run(replica, "items", "update", id, "--color", "red").status == 0) }
        try world.sync(stall)
        let versions = try Processes.sqlite3(world.hub, "SELECT count(*) FROM item_events WHERE item_id = '\(id)'").output
        let second = try world.sync(van)
        #expect(second["pushed"] == 1 && second["conflicts"] == 0, "\(second)")
        #expect(try Processes.sqlite3(world.hub, "SELECT count(*) FROM item_events WHERE item_id = '\(id)'").output == versions)
        #expect(try Processes.sqlite3(world.hub, "SELECT count(*) FROM sync_applied").output == "2")
    }
}

extension SyncCommandTests {
    @Test("`sync --dry-run` lists what would be pushed, in order, without reaching the hub or changing the file")
    func dryRun() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Nails", quantity: 100)
        try world.sync(stall)
        #expect(try world.run(stall, "items", "adjust", id, "--by", "-5").status == 0)
        #expect(try world.run(stall, "items", "update", id, "--name", "Nails, 40 mm").status == 0)
        // The hub is unplugged: a dry run does not need it.
        try FileManager.default.moveItem(atPath: world.hub, toPath: world.hub + ".away")
        let before = try DatabaseSnapshot.of(stall)
        let listed = try world.run(stall, "sync", "--dry-run", "--format", "json")
        #expect(listed.status == 0, "\(listed)")
        let intents = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(intents.map { $0["kind"] as? String } == ["adjust", "set"])
        #expect(intents.first?["change"] as? String == "adjust by -5")
        #expect(intents.allSatisfy { $0["itemId"] as? String == id })
        let table = try world.run(stall, "sync", "--dry-run")
        #expect(table.status == 0 && table.stdout.contains("Renamed 'Nails' -> 'Nails, 40 mm'"), "\(table)")
        #expect(try DatabaseSnapshot.of(stall) == before)
    }
}

extension SyncCommandTests {
    @Test("A hub locked past --busy-timeout exits 75 with every change kept; a hub migrated by a newer stockroom is refused naming both versions")
    func lockedOrNewerHub() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Ladder", quantity: 1)
        try world.sync(stall)
        _ = try world.add(stall, "Bucket", quantity: 2)

        // Another program holds the hub's write lock.
        let holder = try BackgroundProcess("/usr/bin/env", ["python3", "-c", """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            sys.stdin.readline()
            """, world.hub])
        #expect(holder.readLine() == "locked")
        let locked = try world.run(stall, "sync", "--busy-timeout", "0.3")
        expectFailure(locked, code: .busy)
        holder.write("\n")
        #expect(holder.wait().status == 0)
        #expect(try world.sync(stall, hub: false)["pushed"] == 1)

        _ = try Processes.sqlite3(world.hub, "INSERT INTO schema_migrations VALUES (99, 'from_the_future', 'x', '2027-01-01T00:00:00Z')")
        _ = try world.add(stall, "Mop", quantity: 1)
        let before = try DatabaseSnapshot.of(stall)
        let newer = try world.run(stall, "sync")
        expectFailure(newer, code: .dataError, mentioning: "schema version 99")
        #expect(newer.errorMessage.contains("migrate up"), "\(newer)")
        #expect(try DatabaseSnapshot.of(stall) == before)
    }
}

extension SyncCommandTests {
    /// A conflict both replicas hold: the stall renamed the tent while the hub renamed it too.
    static func tentConflict(_ world: World) throws -> (stall: String, van: String, item: String, draft: String) {
        let stall = world.replica("stall"), van = world.replica("van")
        let id = try world.add(world.hub, "Tent", quantity: 1)
        try world.sync(stall)
        try world.sync(van)
        #expect(try world.run(stall, "items", "update", id, "--name", "Tent, 2 people").status == 0)
        #expect(try world.run(world.hub, "items", "update", id, "--name", "Tent, 3 people").status == 0)
        try world.sync(stall)
        try world.sync(van)
        let draftID = try #require(try conflictDrafts(world, van).first?["id"] as? String)
        return (stall, van, id, draftID)
    }

    @Test("Two replicas resolve one conflict differently: the first to reach the hub wins, the second becomes a new conflict", arguments: hubKinds)
    func twoResolutionsOfOneConflict(kind: HubKind) throws {
        let world = try World(kind)
        let (stall, van, id, draftID) = try Self.tentConflict(world)
        // The stall cancels (keeps the hub's name); the van saves its own choice.
        #expect(try world.run(stall, "draft", "cancel", draftID).status == 0)
        #expect(try world.run(van, "draft", "edit", draftID, "--name", "Tent, 4 people").status == 0)
        #expect(try world.run(van, "draft", "save", draftID).status == 0)

        #expect(try world.sync(stall)["conflicts"] == 0, "the first resolution closes the conflict")
        let second = try world.sync(van)
        #expect(second["conflicts"] == 1, "the second is a new conflict, not applied silently: \(second)")
        let conflicts = try world.run(world.hub, "draft", "list", "--format", "json").stdout
        #expect(conflicts.contains("resolved_meanwhile") && conflicts.contains("Tent, 4 people"), "\(conflicts)")
        #expect(try world.run(world.hub, "items", "show", id).stdout.contains("Tent, 3 people"))
    }

    @Test("A sync killed after its push, before its pull: the next sync re-reads the pushed items, so a resolution the hub refused does not stay on the replica", arguments: hubKinds)
    func killedBetweenPushAndPull(kind: HubKind) throws {
        let world = try World(kind)
        let (stall, van, id, draftID) = try Self.tentConflict(world)
        #expect(try world.run(stall, "draft", "cancel", draftID).status == 0)
        #expect(try world.sync(stall)["conflicts"] == 0)
        // The van saves its own name: written on the van at once, refused by the hub (resolved
        // meanwhile), which writes nothing to the item.
        #expect(try world.run(van, "draft", "edit", draftID, "--name", "Tent, 4 people").status == 0)
        #expect(try world.run(van, "draft", "save", draftID).status == 0)
        let killed = try world.run(van, arguments: world.syncArguments(), environment: ["STOCKROOM_SYNC_KILL_AT": "after-push"])
        #expect(killed.status == 128 + SIGKILL, "\(killed)")
        #expect(try Processes.sqlite3(van, "SELECT count(*) FROM sync_rereads").output != "0")

        try world.sync(van, hub: false)
        #expect(try world.run(van, "items", "show", id).stdout.contains("Tent, 3 people"), "the hub's name, re-read")
        #expect(try world.export(van) == world.export(world.hub))
        #expect(try Processes.sqlite3(van, "SELECT count(*) FROM sync_rereads").output == "0")
    }

    @Test("`events --follow` on the hub shows a replica's change as it lands, with its origin")
    func followTheHub() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Stove", quantity: 2)
        try world.sync(stall)
        let last = try Processes.sqlite3(world.hub, "SELECT max(position) FROM item_events").output
        let follower = try BackgroundProcess(Processes.stockroomPath, ["--db", world.hub, "events", "--follow", "--after", last])
        #expect(try world.run(stall, "items", "adjust", id, "--by", "-1").status == 0)
        try world.sync(stall)
        let line = try #require(follower.readLine())
        kill(follower.processIdentifier, SIGTERM)
        _ = follower.wait()
        let replica = try Processes.sqlite3(stall, "SELECT replica_id FROM sync_replica").output
        #expect(line.contains("\"origin\":\"\(replica)\"") && line.contains("\"adjustedBy\":-1"), "\(line)")
    }
}
