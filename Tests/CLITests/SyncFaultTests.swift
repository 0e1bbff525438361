import Foundation
import StockroomStore
import StockroomTestSupport
import Testing

/// Faults during `stockroom sync`, with real processes: killed at named points and at random
/// moments, on either side; a hub lost mid-push (PostgreSQL stopped, the hub file moved away).
/// Each ends with nothing lost and nothing applied twice.
@Suite struct SyncFaultTests {
    typealias World = SyncCommandTests.World

    /// A JSONL file of `count` new items (no ids: each is added under a new one).
    static func items(_ count: Int, in directory: TemporaryDirectory, name: String = "batch") throws -> String {
        let path = directory.path(name + ".jsonl")
        let lines = (1...count).map { #"{"name":"Crate \#($0)","status":{"case":"inStock","quantity":\#($0)}}"# }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Reads the line a sync prints when it pauses at its named point; fails the test with the
    /// process's output when it ended instead (never writing to a process that is gone).
    static func expectPause(_ sync: BackgroundProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let line = sync.readLine()
        if line != "paused at after-hub-commit" {
            let ended = sync.wait()
            Issue.record("expected the sync to pause, read \(line ?? "nothing"): \(ended)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }

    static func pending(_ world: World, _ replica: String) throws -> Int {
        let status = try world.run(replica, "sync", "status", "--format", "json")
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        return object?["pending"] as? Int ?? -1
    }

    @Test("A pull killed before the replica commits leaves the replica as it was; the next sync converges")
    func pullKilledOnTheReplicaSide() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall"), van = world.replica("van")
        _ = try world.add(stall, "Tile", quantity: 40)
        try world.sync(stall)
        _ = try world.add(van, "Grout", quantity: 8)
        try world.sync(van)
        let before = try world.export(stall)
        let killed = try world.run(stall, arguments: ["sync"], environment: ["STOCKROOM_SYNC_KILL_AT": "pull-written"])
        #expect(killed.status == 128 + SIGKILL, "\(killed)")
        #expect(try world.export(stall) == before, "the killed pull's transaction was rolled back")
        #expect(try world.sync(stall, hub: false)["pulled"] == 1)
        #expect(try world.export(stall) == world.export(world.hub))
    }

    @Test("A PostgreSQL hub stopped mid-push: 75, the batches it committed are not pushed again, the rest wait; after a restart, each applied once")
    func postgresStoppedMidPush() throws {
        let server = try PostgresServer(label: "sync-outage")
        defer { server.stop() }
        let directory = TemporaryDirectory()
        let hub = server.socketURI()
        let stall = directory.path("stall.sqlite")
        let count = ReplicaSync.batchSize + 100
        #expect(try Processes.stockroom(["--db", stall, "import", try Self.items(count, in: directory)]).status == 0)

        let sync = try BackgroundProcess(Processes.stockroomPath, ["--db", stall, "sync", "--hub", hub],
                                         environment: ["STOCKROOM_SYNC_PAUSE_AT": "after-hub-commit"])
        try Self.expectPause(sync)
        try server.stopForOutage()
        sync.write("\n")
        let outage = sync.wait()
        #expect(outage.status == Failure.Code.busy.rawValue, "\(outage)")
        #expect(outage.stderr.hasPrefix("error: ") && outage.stderr.split(separator: "\n").count == 1, "\(outage)")

        try server.startAgain()
        let status = try Processes.stockroom(["--db", stall, "sync", "status", "--format", "json"])
        #expect(status.stdout.contains("\"pending\":100"), "the first batch was recorded, the second waits: \(status)")
        let again = try Processes.stockroom(["--db", stall, "sync", "--format", "json"])
        #expect(again.status == 0 && again.stdout.contains("\"pushed\":100"), "\(again)")
        let counted = try Processes.stockroom(["--db", hub, "export", "--format", "jsonl"])
        #expect(counted.stdout.split(separator: "\n").count == count, "every item once: \(counted.stderr)")
    }

    @Test("A hub file moved away mid-push: the push ends in the moved file; the next sync finds no hub (75, all kept) until --hub names the new path, the same hub")
    func hubFileMovedMidPush() throws {
        let world = try World(postgres: false)
        let stall = world.replica("stall")
        _ = try world.add(stall, "Lamp", quantity: 1)
        try world.sync(stall)
        #expect(try world.run(stall, "import", try Self.items(ReplicaSync.batchSize + 10, in: world.directory)).status == 0)

        let sync = try BackgroundProcess(Processes.stockroomPath, ["--db", stall, "sync"],
                                         environment: ["STOCKROOM_SYNC_PAUSE_AT": "after-hub-commit"])
        try Self.expectPause(sync)
        let moved = world.directory.path("moved-hub.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: world.hub + suffix) {
            try FileManager.default.moveItem(atPath: world.hub + suffix, toPath: moved + suffix)
        }
        sync.write("\n")
        try Self.expectPause(sync)
        sync.write("\n")
        let finished = sync.wait()
        #expect(finished.status == 0, "\(finished)")

        _ = try world.add(stall, "Lamp shade", quantity: 2)
        expectFailure(try world.run(stall, "sync"), code: .busy, mentioning: "no such file")
        #expect(try Self.pending(world, stall) == 1)
        let found = try world.run(stall, "sync", "--hub", moved, "--format", "json")
        #expect(found.status == 0 && found.stdout.contains("\"pushed\":1"), "\(found)")
        #expect(try Processes.sqlite3(stall, "SELECT hub_uri FROM sync_replica").output.hasSuffix("moved-hub.sqlite"))
        #expect(try world.export(stall) == world.export(moved))
    }

    @Test("Syncs killed at random moments, over and over: once one completes, every intent was applied exactly once",
          arguments: [UInt64(35), 36, 37])
    func killedAtRandomMoments(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let world = try World(postgres: seed % 2 == 0)
        let stall = world.replica("stall")
        let id = try world.add(stall, "Rivet", quantity: 10_000)
        try world.sync(stall)
        var sold = 0
        for round in 0..<4 {
            for _ in 0..<25 {
                let units = Int.random(in: 1...3, using: &random)
                #expect(try world.run(stall, "items", "adjust", id, "--by", String(-units)).status == 0)
                sold += units
            }
            _ = try world.add(stall, "Round \(round)", quantity: 1)
            let sync = try BackgroundProcess(Processes.stockroomPath, ["--db", stall, "sync"])
            // The kill lands anywhere from before the hub is reached to after the pull: the
            // fault itself is the random moment.
            usleep(useconds_t(Int.random(in: 0...120_000, using: &random)))
            kill(sync.processIdentifier, SIGKILL)
            _ = sync.wait()
        }
        try world.sync(stall, hub: false)
        #expect(try world.quantity(world.hub, id) == 10_000 - sold, "seed \(seed)")
        #expect(try world.export(stall) == world.export(world.hub), "seed \(seed)")
        #expect(try world.export(world.hub).count == 5, "seed \(seed): the rivet and one item per round, each once")
    }
}
