import Foundation
import StockroomTestSupport
import Testing

/// Every write path on a server takes its locks in one order: the history turn (migration 0004's
/// advisory lock), then rows. `import --on-conflict replace` takes the turn and then the rows it
/// replaces; `items update` used to lock its row and then wait for the turn, and the two could
/// deadlock (issue 20). Real processes in loops against one server: no deadlock error reaches
/// anyone, every acknowledged write is there, and versions have no gap.
@Suite struct PostgresLockOrderTests {
    static let importers = 2
    static let updaters = 3
    static let rounds = 25
    /// New items each import adds before the rows replacing the shared ones.
    static let newPerImport = 300

    /// Imports, `rounds` times, a file adding ``newPerImport`` new items and then replacing every
    /// shared item (a quantity no other write uses); prints `import` per acknowledged import, `fail CODE: …` else.
    static func importScript(worker: Int) -> String {
        """
        set -u
        read -r -a shared <<<"$SHARED"
        for round in $(seq 1 \(rounds)); do
            file="$FOLDER/import-\(worker)-$round.jsonl"
            : >"$file"
            # New items first: the import holds the history turn while their rows are written,
            # before it reaches the shared items' rows, the window an update's row lock falls in.
            for n in $(seq 1 \(newPerImport)); do
                printf '{"name":"importer \(worker) round %d item %d","status":{"case":"inStock","quantity":1}}\\n' "$round" "$n" >>"$file"
            done
            for id in "${shared[@]}"; do
                printf '{"id":"%s","name":"Shared %s","status":{"case":"inStock","quantity":%d}}\\n' \\
                    "$id" "$id" $(( 1000000 + \(worker) * 10000 + round )) >>"$file"
            done
            if out=$("$STOCKROOM" import "$file" --on-conflict replace 2>&1); then echo "import"; else echo "fail $?: $out"; fi
        done
        """
    }

    /// Updates the shared items in turn, `3 * rounds` times; prints `update ID` per acknowledged update.
    static func updateScript(worker: Int) -> String {
        """
        set -u
        read -r -a shared <<<"$SHARED"
        for i in $(seq 1 \(3 * rounds)); do
            target=${shared[$(( (i + \(worker)) % ${#shared[@]} ))]}
            if out=$("$STOCKROOM" items update "$target" --quantity $(( \(worker) * 1000 + i )) 2>&1); then
                echo "update $target"; else echo "fail $?: $out"; fi
        done
        """
    }

    @Test func concurrentReplacingImportsAndItemUpdatesNeverDeadlock() throws {
        let database = try PostgresScratchDatabase()
        let folder = TemporaryDirectory()
        let environment = ["STOCKROOM": Processes.stockroomPath, "STOCKROOM_DB": database.uri]
        var shared: [String] = []
        for index in 0..<4 {
            let added = try Processes.stockroom(["items", "add", "--name", "Shared \(index)"], environment: environment)
            #expect(added.status == 0, "\(added)")
            shared.append(added.output)
        }
        let scripts = (0..<Self.importers).map { Self.importScript(worker: $0) } + (0..<Self.updaters).map { Self.updateScript(worker: $0) }
        let loopEnvironment = environment.merging(["SHARED": shared.joined(separator: " "), "FOLDER": folder.url.path]) { $1 }
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: scripts.count) { worker in
            results.append(Result {
                try Processes.run("/bin/bash", ["-c", scripts[worker]], environment: loopEnvironment, timeoutSeconds: 1_800)
            })
        }

        var imports = 0, failures: [String] = []
        var updates: [String: Int] = [:]
        for result in results.all {
            let finished = try result.get()
            #expect(finished.status == 0, "\(finished)")
            for line in finished.lines {
                if line == "import" {
                    imports += 1
                } else if line.hasPrefix("update ") {
                    updates[String(line.dropFirst("update ".count)), default: 0] += 1
                } else {
                    failures.append(line)
                }
            }
        }
        #expect(failures.isEmpty, "failed commands: \(failures)")
        // A deadlock whose victim was an `items update` is retried by it and never shown: the
        // server's own count says whether any happened (every session has ended, so its
        // statistics are in).
        let deadlocks = try database.psql("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()").output
        #expect(deadlocks == "0", "deadlocks detected by the server: \(deadlocks)")
        #expect(imports == Self.importers * Self.rounds)
        #expect(updates.values.reduce(0, +) == Self.updaters * 3 * Self.rounds)

        // Each acknowledged import added its new items; every write changed the quantity, so
        // each shared item's versions are 1 (added), one per update and one per import, gapless.
        #expect(try database.psql("SELECT count(*) FROM items").output == "\(shared.count + imports * Self.newPerImport)")
        var versions: [String: (count: Int, highest: Int)] = [:]
        for line in try database.psql("SELECT item_id, count(*), min(version), max(version) FROM item_events GROUP BY item_id").lines {
            let fields = line.split(separator: "|").map(String.init)
            #expect(fields[2] == "1", "\(line)")
            versions[fields[0]] = (Int(fields[1])!, Int(fields[3])!)
        }
        for (item, events) in versions { #expect(events.count == events.highest, "a gap in \(item)'s versions") }
        for item in shared {
            #expect(versions[item]?.highest == 1 + (updates[item] ?? 0) + imports, "\(item): \(String(describing: versions[item]))")
        }
        let positions = try database.psql("SELECT count(*) = max(position) FROM item_events").output
        #expect(positions == "t", "positions have a gap")
    }
}
