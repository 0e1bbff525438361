import Foundation
import Glibc
import Inventory
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// The sync against ``ReferenceModel`` with real databases, in process: 3 to 5 replica files
/// and a hub (a SQLite file, or a scratch schema of the tests' PostgreSQL server). Seeded random
/// changes on the replicas (adds, `items update` sets, adjustments, deletes, `sqlite3` shell
/// UPDATEs, resolutions of conflict drafts: saved after an edit, saved as they are, cancelled)
/// and on the hub itself, synced in random orders through `ReplicaSync.run` (what
/// `stockroom sync` and `StorePool.sync` call), some with the answer lost after the hub
/// committed. The model is fed exactly what the hub receives, in the hub's order: each replica's
/// outbox as it stands before its sync.
///
/// It shows the three things of issue 35: after every sync the hub holds the model's items (so
/// every adjustment counted exactly once) and the model's open conflicts (so every overtaken
/// set left a conflict draft); and once every replica synced twice with nothing new, every
/// replica holds the hub's items, timestamps and open conflict drafts (convergence).
///
/// A failure names its seed; `STOCKROOM_SYNC_SEED=N swift test --filter SyncPropertyTests`
/// replays that seed alone, and `STOCKROOM_SYNC_SEEDS=N` runs seeds 1 to N. Killed processes
/// are SyncFaultTests' part.
@Suite struct SyncPropertyTests {
    static let seeds: [UInt64] = {
        if let text = getenv("STOCKROOM_SYNC_SEED"), let seed = UInt64(String(cString: text)) { return [seed] }
        if let text = getenv("STOCKROOM_SYNC_SEEDS"), let count = UInt64(String(cString: text)), count > 0 {
            return Array(1...count)
        }
        return Array(1...6)
    }()

    @Test(arguments: Engine.allCases, seeds)
    func theHubsAgreeWithTheReferenceModelAndEveryReplicaConverges(engine: Engine, seed: UInt64) throws {
        let run = try SyncRun(engine: engine, seed: seed)
        try run.play(steps: 90)
        try run.settle()
        try run.checkOutcome()
    }

    /// The same runs through `stockroom serve` (issue 36): the replicas reach the hub over
    /// HTTP, through the relay `stockroom sync` uses, and the server is killed and started
    /// again half way.
    @Test(arguments: Engine.allCases, seeds.prefix(3))
    func throughAServerRestartedHalfWay(engine: Engine, seed: UInt64) throws {
        let run = try SyncRun(engine: engine, seed: seed, served: true)
        try run.play(steps: 45)
        try run.restartServer()
        try run.play(steps: 45)
        try run.settle()
        try run.checkOutcome()
        #expect(run.serverStarts == 2, "\(run.context)")
    }
}

/// `stockroom serve` on the hub, for a served run: started by the test, killed by it.
private final class HubServer {
    static let token = "property-token-0123456789abcdef"
    let process: BackgroundProcess
    let url: String

    init(_ location: DatabaseLocation, tokenFile: String) throws {
        let hub = switch location {
        case .file(let path): path
        case .postgres(let uri): uri
        }
        process = try BackgroundProcess(Processes.stockroomPath, ["serve", "--db", hub, "--port", "0", "--token-file", tokenFile])
        let printed = try #require(process.readLine())
        url = String(printed.prefix { $0 != "?" })
    }

    /// A transport to it, as `stockroom sync --hub URL` makes one: `stockroom-serve --sync-relay`.
    func transport() throws -> RelayTransport {
        let folder = URL(fileURLWithPath: Processes.stockroomPath).deletingLastPathComponent()
        return try RelayTransport(program: folder.appending(path: "stockroom-serve").path, url: url, token: Self.token, caFile: nil)
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = process.wait()
    }
}

/// The answer to a push lost after the hub committed it (``ReplicaSync/run``'s test seam).
private struct LostAnswer: Error {}

/// One seeded run: the hub, the replicas, the model, and what was made.
private final class SyncRun {
    struct Replica {
        let path: String
        let store: InventoryStore
        let origin: UUID
    }

    let engine: Engine
    let seed: UInt64
    var random: SeededGenerator
    /// The hub, in a temporary folder that holds the replicas too.
    let hubStore: TestStore
    var hub: InventoryStore { hubStore.store }
    var hubLocation: DatabaseLocation { hubStore.location }
    var replicas: [Replica] = []
    var model = ReferenceModel()
    var counter = 0
    /// The quantity each item was added with.
    var added: [UUID: Int] = [:]
    /// The units of every adjustment a replica made, by item.
    var adjustedOnReplicas: [UUID: Int] = [:]
    /// The units of every adjustment made on the hub itself, by item.
    var adjustedOnHub: [UUID: Int] = [:]
    /// Items whose status someone set (not only adjusted): the quantity check skips them.
    var statusSet: Set<UUID> = []
    /// Every conflict the hub was seen holding open.
    var everOpenOnHub: Set<UUID> = []
    var syncs = 0, lostAnswers = 0, intentsPushed = 0
    /// Set at the first difference from the model: the run stops there, so that a failure is
    /// the first wrong sync and not every one that follows from it.
    var diverged = false

    /// The server the replicas sync through, in a served run.
    var server: HubServer?
    var serverStarts = 0
    let tokenFile: String

    init(engine: Engine, seed: UInt64, served: Bool = false) throws {
        self.engine = engine
        self.seed = seed
        random = SeededGenerator(seed: seed)
        hubStore = try TestStore(engine)
        tokenFile = hubStore.directory.path("token")
        if served {
            try (HubServer.token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
            chmod(tokenFile, 0o600)
            try restartServer()
        }
        let count = Int.random(in: 3...5, using: &random)
        for index in 0..<count {
            let path = hubStore.directory.path("replica\(index).sqlite")
            _ = try ReplicaSync.run(path: path, hub: try hubAddress(), busyTimeoutMilliseconds: 5_000)
            let store = try InventoryStore(path: path)
            let origin = try store.read { try ReplicationTables(connection: store.database!).replica()!.replicaID }
            replicas.append(Replica(path: path, store: store, origin: origin))
        }
    }

    deinit { server?.kill() }

    var context: Comment {
        "seed \(seed) on a \(engine) hub\(server == nil ? "" : " through stockroom serve") (replay: STOCKROOM_SYNC_SEED=\(seed) swift test --filter SyncPropertyTests)"
    }

    /// The hub a sync reaches: the database, or the server through a new relay.
    func hubAddress() throws -> HubAddress {
        guard let server else { return .database(hubLocation) }
        return .server(try server.transport())
    }

    /// Kills the server (SIGKILL: nothing is flushed or finished) and starts another on the
    /// same hub, at another port: the replicas are given its URL, as a moved server's.
    func restartServer() throws {
        server?.kill()
        server = try HubServer(hubLocation, tokenFile: tokenFile)
        serverStarts += 1
    }

    func play(steps: Int) throws {
        for _ in 0..<steps where !diverged {
            let index = Int.random(in: 0..<replicas.count, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<12: try add(at: index)
            case 12..<34: try adjust(at: index)
            case 34..<46: try set(at: index)
            case 46..<54: try shellUpdate(at: index)
            case 54..<59: try delete(at: index)
            case 59..<69: try resolve(at: index)
            case 69..<77: try writeOnHub()
            default: try sync(index, losingAnswer: Int.random(in: 0..<100, using: &random) < 20)
            }
        }
    }

    /// Every replica syncs twice, in turn, with no lost answers and no new changes.
    func settle() throws {
        for _ in 0..<2 {
            for index in replicas.indices where !diverged { try sync(index, losingAnswer: false) }
        }
    }

    // MARK: Changes on the replicas

    func name() -> String {
        counter += 1
        return "item \(counter)"
    }

    func randomStatus() -> Status {
        Bool.random(using: &random) ? .inStock(quantity: Int.random(in: 1...6, using: &random))
            : .outOfStock(isOnBackOrder: Bool.random(using: &random))
    }

    func randomItem(in store: InventoryStore) throws -> Item? {
        try store.items.everyItem().sorted { $0.id.uuidString < $1.id.uuidString }.randomElement(using: &random)
    }

    func newItem() -> Item {
        let item = Item(id: random.uuid(), name: name(), color: Color.allCases.randomElement(using: &random),
                        status: randomStatus(), location: Bool.random(using: &random) ? ItemLocation(stored: "Shelf A") : nil)
        added[item.id] = item.status.quantityInStock
        return item
    }

    func add(at index: Int) throws {
        try replicas[index].store.items.insert(newItem())
    }

    func adjust(at index: Int) throws {
        let store = replicas[index].store
        guard let item = try randomItem(in: store) else { return try add(at: index) }
        // A replica refuses to sell what it does not hold, as `items adjust` does; selling what
        // another replica sold too is what makes an oversold conflict at the hub.
        let units = [-3, -2, -1, -1, -1, 1, 2, 5].filter { item.status.quantityInStock + $0 >= 0 }.randomElement(using: &random)!
        try store.items.adjust(id: item.id, by: units)
        adjustedOnReplicas[item.id, default: 0] += units
    }

    /// `items update` of one field.
    func set(at index: Int) throws {
        let store = replicas[index].store
        guard let item = try randomItem(in: store) else { return try add(at: index) }
        var edit = ItemEdit()
        switch Int.random(in: 0..<4, using: &random) {
        case 0: edit.name = ["Keyboard", "Mouse", "Cable", name()].randomElement(using: &random)!
        case 1: edit.color = Bool.random(using: &random) ? .remove : .set(Color.allCases.randomElement(using: &random)!)
        case 2:
            edit.status = randomStatus()
            statusSet.insert(item.id)
        default: edit.texts[.location] = [.remove, .set("Shelf B"), .set("Van")].randomElement(using: &random)!
        }
        try store.items.update(id: item.id, with: edit)
    }

    /// An UPDATE of several fields typed into the `sqlite3` shell: the capture triggers make it
    /// a set.
    func shellUpdate(at index: Int) throws {
        guard let item = try randomItem(in: replicas[index].store) else { return try add(at: index) }
        var assignments: [String: String] = [:]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: assignments["name"] = "'\(name())'"
            case 1: assignments["color"] = ["NULL", "'red'", "'blue'"].randomElement(using: &random)!
            case 2:
                statusSet.insert(item.id)
                if Bool.random(using: &random) {
                    assignments["status"] = "'in_stock'"
                    assignments["quantity"] = String(Int.random(in: 1...6, using: &random))
                    assignments["is_on_back_order"] = "NULL"
                } else {
                    assignments["status"] = "'out_of_stock'"
                    assignments["quantity"] = "NULL"
                    assignments["is_on_back_order"] = Bool.random(using: &random) ? "1" : "0"
                }
            default: assignments["location"] = ["NULL", "'Van'", "'Shelf C'"].randomElement(using: &random)!
            }
        }
        let set = assignments.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
        let result = try Processes.sqlite3(replicas[index].path,
                                           "UPDATE items SET \(set) WHERE id = '\(item.id.uuidString.lowercased())'; SELECT changes();")
        #expect(result.status == 0 && result.output == "1", "\(result); \(context)")
    }

    func delete(at index: Int) throws {
        let store = replicas[index].store
        guard let item = try randomItem(in: store) else { return }
        try store.items.delete(id: item.id)
    }

    /// A person resolves one of the replica's conflict drafts: edits then saves it, saves it as
    /// it is, or cancels it.
    func resolve(at index: Int) throws {
        let drafts = replicas[index].store.drafts
        guard let draft = try drafts.openConflicts().sorted(by: { $0.id.uuidString < $1.id.uuidString })
            .randomElement(using: &random) else { return try set(at: index) }
        let itemID = draft.draft.item.id
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            try drafts.cancel(id: draft.id)
        case 1:
            statusSet.insert(itemID)
            try drafts.save(id: draft.id)
        default:
            statusSet.insert(itemID)
            try drafts.edit(id: draft.id, with: ItemEdit(name: name(), status: .inStock(quantity: Int.random(in: 1...9, using: &random))))
            try drafts.save(id: draft.id)
        }
    }

    // MARK: Changes on the hub

    /// The hub's own users write to it directly: an addition, a rename, a new status, an
    /// adjustment, or a delete. Each is a local change for the model.
    func writeOnHub() throws {
        guard let item = try randomItem(in: hub), Int.random(in: 0..<6, using: &random) > 0 else {
            let item = newItem()
            try hub.items.insert(item)
            model.writeLocally(item, id: item.id)
            return
        }
        let before = try hub.items.version(id: item.id)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            try hub.items.delete(id: item.id)
            model.writeLocally(nil, id: item.id)
            return
        case 1:
            statusSet.insert(item.id)
            _ = try hub.items.update(id: item.id, with: ItemEdit(status: randomStatus()))
        case 2:
            let units = [-1, 1, 3].filter { item.status.quantityInStock + $0 >= 0 }.randomElement(using: &random)!
            _ = try hub.items.adjust(id: item.id, by: units)
            adjustedOnHub[item.id, default: 0] += units
        default:
            _ = try hub.items.update(id: item.id, with: ItemEdit(name: name()))
        }
        // Only a write that made a version is one for the model (an unchanged status makes none).
        if try hub.items.version(id: item.id) != before {
            model.writeLocally(try hub.items.item(id: item.id), id: item.id)
        }
    }

    // MARK: Syncing

    /// Feeds the model the replica's outbox as the hub will receive it, then syncs; a lost
    /// answer is thrown after the hub committed the push (the replica pushes it all again next
    /// time, and pulls nothing now).
    func sync(_ index: Int, losingAnswer: Bool) throws {
        let replica = replicas[index]
        let waiting = try replica.store.read {
            try OutboxIntents(connection: replica.store.database!).all(origin: replica.origin)
        }
        for pushed in waiting { model.apply(try hubIntent(pushed)) }
        intentsPushed += waiting.count
        syncs += 1
        do {
            _ = try ReplicaSync.run(path: replica.path, hub: try hubAddress(), busyTimeoutMilliseconds: 5_000,
                                    afterHubCommit: { _ in if losingAnswer { throw LostAnswer() } })
            #expect(!losingAnswer || waiting.isEmpty, "the lost answer was not thrown; \(context)")
        } catch is LostAnswer {
            lostAnswers += 1
        }
        diverged = try !hubMatchesModel(afterSyncOf: index)
    }

    /// The intent as the hub judges it: a delete carries the hub's version of the item at the
    /// position the replica had pulled, read from the hub's history (docs/replicas.md).
    func hubIntent(_ pushed: OutboxIntent) throws -> Intent {
        guard case .delete = pushed.intent.change, let position = pushed.lastPulledPosition else { return pushed.intent }
        let version = try hub.read {
            switch hub.connection.concrete {
            case .sqlite(let connection): try Self.version(of: pushed.intent.itemID, through: position, on: connection)
            case .postgres(let connection): try Self.version(of: pushed.intent.itemID, through: position, on: connection)
            }
        }
        let intent = pushed.intent
        return Intent(id: intent.id, itemID: intent.itemID, origin: intent.origin, madeAt: intent.madeAt,
                      replicaCopy: intent.replicaCopy, change: .delete(lastPulledVersion: version))
    }

    static func version<Connection: StoreConnection>(of itemID: UUID, through position: Int, on connection: Connection) throws -> Int {
        try connection.withStatement("SELECT coalesce(max(version), 0) FROM item_events WHERE item_id = ? AND position <= ?") { statement in
            try statement.bind(itemID, at: 0)
            try statement.bind(position, at: 1)
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    // MARK: Checks

    /// Records an issue, and returns false, at the first way the hub differs from the model.
    func hubMatchesModel(afterSyncOf index: Int) throws -> Bool {
        let hubValues = Dictionary(uniqueKeysWithValues: try hub.items.everyItem().map { ($0.id, ReferenceModel.Values($0)) })
        guard hubValues == model.items else {
            let ids = Set(hubValues.keys).union(model.items.keys).filter { hubValues[$0] != model.items[$0] }
            let detail = ids.map { "\($0): hub \(hubValues[$0].map(String.init(describing:)) ?? "none"), model \(model.items[$0].map(String.init(describing:)) ?? "none")" }
            Issue.record("items differ after sync \(syncs) (replica \(index)): \(detail.joined(separator: "; ")); \(context)")
            return false
        }
        let open = try hub.drafts.openConflicts()
        everOpenOnHub.formUnion(open.map(\.id))
        guard Set(open.map(\.id)) == Set(model.open.keys) else {
            Issue.record("open conflicts differ after sync \(syncs) (replica \(index)): hub \(open.map(\.id)), model \(Array(model.open.keys)); \(context)")
            return false
        }
        for draft in open {
            let expected = model.open[draft.id]!
            guard let conflict = draft.conflict else {
                Issue.record("draft \(draft.id) is not a conflict's; \(context)")
                return false
            }
            var missing = 0
            if case .oversold(_, let units) = conflict.reason { missing = units }
            guard conflict.reason.case.rawValue == expected.reason, missing == expected.missing, conflict.itemID == expected.itemID else {
                Issue.record("conflict \(draft.id) is \(conflict.reason.case.rawValue) (missing \(missing)), the model's \(expected.reason) (missing \(expected.missing)); \(context)")
                return false
            }
        }
        return true
    }

    func checkOutcome() throws {
        guard !diverged else { return }
        // Every adjustment counted exactly once: where no one set the status, the hub's quantity
        // is what the item was added with, plus every adjustment made anywhere, plus what was
        // found missing (taken below zero by sales made apart).
        for item in try hub.items.everyItem() where !statusSet.contains(item.id) {
            guard let first = added[item.id] else { continue }
            let onReplicas = adjustedOnReplicas[item.id, default: 0]
            #expect(model.adjustedUnits[item.id, default: 0] == onReplicas,
                    "the adjustments of \(item.name) reaching the hub are not those made; \(context)")
            #expect(item.status.quantityInStock == first + onReplicas + adjustedOnHub[item.id, default: 0] + model.missingUnits[item.id, default: 0],
                    "quantity of \(item.name) is not the sum of its adjustments; \(context)")
        }
        // Convergence: every replica holds the hub's items, with their timestamps, and its open
        // conflict drafts, and has nothing left to push.
        let hubItems = try hub.items.everyItem().sorted { $0.id.uuidString < $1.id.uuidString }
        let hubTimes = try Self.timestamps(in: hub)
        let hubDrafts = try hub.drafts.openConflicts().sorted { $0.id.uuidString < $1.id.uuidString }
        for (index, replica) in replicas.enumerated() {
            let items = try replica.store.items.everyItem().sorted { $0.id.uuidString < $1.id.uuidString }
            if items != hubItems {
                let held = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
                let onHub = Dictionary(uniqueKeysWithValues: hubItems.map { ($0.id, $0) })
                let differing = Set(held.keys).union(onHub.keys).filter { held[$0] != onHub[$0] }.map {
                    "\($0): replica \(held[$0].map { ReferenceModel.Values($0).description } ?? "none"), hub \(onHub[$0].map { ReferenceModel.Values($0).description } ?? "none")"
                }
                Issue.record("replica \(index) did not converge: \(differing.sorted().joined(separator: "; ")); \(context)")
            }
            #expect(try Self.timestamps(in: replica.store) == hubTimes, "replica \(index)'s timestamps differ; \(context)")
            let drafts = try replica.store.drafts.openConflicts().sorted { $0.id.uuidString < $1.id.uuidString }
            #expect(drafts == hubDrafts, "replica \(index)'s conflict drafts differ; \(context)")
            let pending = try replica.store.read { try ReplicationTables(connection: replica.store.database!).pendingCount() }
            #expect(pending == 0, "replica \(index) has \(pending) intents left; \(context)")
        }
        // Every overtaken set left a conflict draft on the hub.
        #expect(model.overtakenSets.isSubset(of: everOpenOnHub), "an overtaken set left no conflict; \(context)")
        if getenv("STOCKROOM_SYNC_VERBOSE") != nil {
            print("seed \(seed) \(engine): \(replicas.count) replicas, \(syncs) syncs (\(lostAnswers) answers lost), \(intentsPushed) intents pushed, \(model.applied.count) applied, \(model.opened.count) conflicts opened (\(model.overtakenSets.count) overtaken sets), \(hubItems.count) items, \(hubDrafts.count) open")
        }
    }

    /// Each item's id and timestamps, in id order.
    static func timestamps(in store: InventoryStore) throws -> [String] {
        try store.read {
            switch store.connection.concrete {
            case .sqlite(let connection): try timestamps(on: connection)
            case .postgres(let connection): try timestamps(on: connection)
            }
        }
    }

    static func timestamps<Connection: StoreConnection>(on connection: Connection) throws -> [String] {
        try connection.withStatement("SELECT id, created_at, updated_at FROM items ORDER BY id") { statement in
            var rows: [String] = []
            while try statement.step() { rows.append("\(statement.text(at: 0)) \(statement.text(at: 1)) \(statement.text(at: 2))") }
            return rows
        }
    }
}
