import Foundation
import Inventory

/// The workloads of issue #5. Implementations take turns within each run, so drift in the
/// machine's speed affects them alike; the first run is a warm-up and is not recorded.
struct Workloads {
    var implementations: [any Implementation]
    let runs: Int
    let scratch: URL
    let log: (String) -> Void
    /// Makes a fresh, migrated database called `name` and returns what `open(path:)` takes:
    /// nil for a SQLite file in `scratch`; the PostgreSQL run gives a database on its server.
    var makeDatabase: ((String) throws -> String)? = nil

    private func freshDatabase(_ name: String) throws -> String {
        try makeDatabase?(name) ?? Harness.freshDatabase(in: scratch, name: name)
    }

    private func removeDatabase(_ path: String) {
        // A PostgreSQL database is dropped by the next makeDatabase of its name.
        if makeDatabase == nil { Harness.removeDatabase(path) }
    }

    /// W1: insert `items` in one transaction, into a fresh database each time.
    func insertAll(_ items: [Item], label: String) throws -> [Result] {
        var samples = [[Double]](repeating: [], count: implementations.count)
        for run in 0...runs {
            for (index, implementation) in implementations.enumerated() {
                let path = try freshDatabase("w1.sqlite")
                try implementation.open(path: path)
                let seconds = try Harness.time { try implementation.insert(items) }
                implementation.close()
                removeDatabase(path)
                if run > 0 { samples[index].append(seconds) }
            }
            log("  \(label) run \(run)/\(runs)")
        }
        return results(label, unit: "s", samples)
    }

    /// W2: read every item of the database at `path`, decoded into `[Item]`.
    func fetchAll(path: String, expected: Int, label: String) throws -> [Result] {
        var samples = [[Double]](repeating: [], count: implementations.count)
        for run in 0...runs {
            for (index, implementation) in implementations.enumerated() {
                try implementation.open(path: path)
                var count = 0
                let seconds = try Harness.time { count = try implementation.fetchAll().count }
                implementation.close()
                guard count == expected else { throw BenchmarkError(message: "\(implementation.name) read \(count) of \(expected) items") }
                if run > 0 { samples[index].append(seconds) }
            }
        }
        return results(label, unit: "s", samples)
    }

    /// W3: page queries on the database at `path`; the figure is the time of one query.
    func pages(path: String, queries: [(Color, String)], label: String) throws -> [Result] {
        var samples = [[Double]](repeating: [], count: implementations.count)
        var reference: [[UUID]]?
        for run in 0...runs {
            for (index, implementation) in implementations.enumerated() {
                try implementation.open(path: path)
                var pages: [[UUID]] = []
                pages.reserveCapacity(queries.count)
                let seconds = try Harness.time {
                    for (color, prefix) in queries {
                        pages.append(try implementation.page(color: color, namePrefix: prefix).map(\.id))
                    }
                }
                implementation.close()
                // Every implementation must return the same pages, or the comparison is void.
                if let reference, reference != pages { throw BenchmarkError(message: "\(implementation.name) returned different pages") }
                reference = pages
                if run > 0 { samples[index].append(seconds / Double(queries.count)) }
            }
        }
        return results(label, unit: "ms", samples.map { $0.map { $0 * 1000 } })
    }

    /// W4: the draft cycle, each step its own durable transaction; the figure is one cycle.
    func draftCycles(seed items: [Item], cycles: Int, label: String) throws -> [Result] {
        let cycling = implementations.compactMap { $0 as? any DraftCycling }
        var samples = [[Double]](repeating: [], count: cycling.count)
        for run in 0...runs {
            for (index, implementation) in cycling.enumerated() {
                let path = try Harness.freshDatabase(in: scratch, name: "w4.sqlite")
                try StockroomImplementation().seed(path: path, items: items)
                try implementation.open(path: path)
                var latencies: [Double] = []
                for cycle in 0..<cycles {
                    let source = items[(cycle * 7919) % items.count]
                    latencies.append(try Harness.time { try implementation.draftCycle(itemID: source.id, newName: "Copy \(cycle)") })
                }
                implementation.close()
                Harness.removeDatabase(path)
                if run > 0 { samples[index].append(Result(workload: "", implementation: "", unit: "", samples: latencies).median) }
            }
        }
        return results(label, unit: "ms", samples.map { $0.map { $0 * 1000 } }, names: cycling.map(\.name))
    }

    /// Whole-process timings of two commands, alternating; the first is the baseline.
    func processes(label: String, baseline: (name: String, executable: String, arguments: [String]),
                   candidate: (name: String, executable: String, arguments: [String]),
                   repetitions: Int, before: () throws -> Void = {}) throws -> [Result] {
        var samples: [[Double]] = [[], []]
        for run in 0...(runs * repetitions) {
            for (index, command) in [baseline, candidate].enumerated() {
                try before()
                let seconds = try Harness.timeProcess(command.executable, command.arguments)
                if run > 0 { samples[index].append(seconds) }
            }
        }
        return results(label, unit: "ms", samples.map { $0.map { $0 * 1000 } }, names: [baseline.name, candidate.name])
    }

    private func results(_ label: String, unit: String, _ samples: [[Double]], names: [String]? = nil) -> [Result] {
        let names = names ?? implementations.map(\.name)
        var rows = zip(names, samples).map { Result(workload: label, implementation: $0, unit: unit, samples: $1) }
        let baseline = rows.first?.median ?? 1
        for index in rows.indices { rows[index].ratio = rows[index].median / baseline }
        return rows
    }
}

extension StockroomImplementation {
    /// Fills a database untimed, through the product's own bulk insert.
    func seed(path: String, items: [Item]) throws {
        try open(path: path)
        defer { close() }
        try insert(items)
    }
}
