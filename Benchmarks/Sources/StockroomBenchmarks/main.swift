// Stockroom's side-by-side benchmarks. Usage (see scripts/bench.sh):
//   StockroomBenchmarks [--quick] [--stockroom PATH] [--output BENCHMARKS.md] [--only W1,W3] [--insert-sizes 100000]
//                       [--implementations raw,stockroom]
//   StockroomBenchmarks --postgres [--quick] [--only W2] [--large-size 100000] [--runs 15]
//                                              W1-W3 and W11 on a throwaway PostgreSQL server, printed only
//   --large-db PATH                            keep the large database at PATH; reuse it if there
//   --without-search-index                     drop the trigram index after migrating (W1 before issue 21)
//   --largest-insert-implementations raw,stockroom
//                                              W1's largest size only for these (GRDB's two sides
//                                              add some 10 minutes at 1M)
//   --only W14 [--sync-hub-size 100000] [--sync-intents 10000] [--instructions] [--stockroom-before PATH]
//                                              `stockroom sync` (issue 35), only when asked: its own
//                                              table; the first sync reads the large database
//   --only W15 [--sync-hub-size 100000] [--sync-intents 10000] [--w15-replicas 16] [--w15-intents 1000] [--w15-rounds 2]
//              [--w15-concurrent-only] [--w15-engines sqlite,postgres] [--w15-nice 10]
//                                              `stockroom sync` through `stockroom serve` (issue 36), only
//                                              when asked: needs stockroom-serve beside stockroom
//                                              (scripts/build-release.sh --serve)
import Foundation
import Inventory
import SQLiteCore

// W14's floor runs as a process of its own (Sync/SyncFloor.swift), started by this program.
if CommandLine.arguments.dropFirst().first == "--w14-floor" { SyncFloor.main(Array(CommandLine.arguments.dropFirst(2))) }

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let quick = arguments.contains("--quick")
// How the run was asked for, as printed beside its figures: scripts/bench.sh passes the binary
// and the output file itself, so those two are left out.
let invocation = (["scripts/bench.sh"] + arguments.enumerated().filter { index, argument in
    !["--stockroom", "--output"].contains(argument) && (index == 0 || !["--stockroom", "--output"].contains(arguments[index - 1]))
}.map(\.element)).joined(separator: " ")
let stockroomBinary = option("--stockroom")
let output = option("--output")
let only = option("--only").map { Set($0.split(separator: ",").map(String.init)) }
func selected(_ workload: String) -> Bool { only?.contains(workload) ?? true }

let sizes = quick
    ? (insert: [1_000, 10_000], large: 10_000, queries: 50, draftSeed: 200, cycles: 10, processRepetitions: 2)
    : (insert: [100_000, 1_000_000], large: 1_000_000, queries: 200, draftSeed: 1_000, cycles: 50, processRepetitions: 4)
// Recorded runs per workload (after a warm-up); more on a noisy machine.
let runs = option("--runs").flatMap { Int($0) } ?? 5
// The large database's size (W2, W3), e.g. 100000 for a callgrind run between --quick and full.
let largeSize = option("--large-size").flatMap { Int($0) } ?? sizes.large
Harness.withoutSearchIndex = arguments.contains("--without-search-index")
// W1's sizes, when a loaded machine leaves no time for the 1M run.
let insertSizes = option("--insert-sizes").map { $0.split(separator: ",").compactMap { Int($0) } } ?? sizes.insert

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

let scratch = FileManager.default.temporaryDirectory.appending(path: "stockroom-bench-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

// `--implementations raw,stockroom` runs only those (by the start of their names, lowercased):
// an instruction count under callgrind then takes minutes, not the better part of an hour.
let chosen = option("--implementations").map { $0.split(separator: ",").map { $0.lowercased() } }
let implementations: [any Implementation] = [
    RawImplementation(), StockroomImplementation(), GRDBRecordsImplementation(), GRDBCodableImplementation(),
].filter { implementation in
    chosen.map { $0.contains { implementation.name.lowercased().hasPrefix($0) } } ?? true
}
let loadAverageBefore = TransferWorkloads.loadAverage()
let workloads = Workloads(implementations: implementations, runs: runs, scratch: scratch, log: log)
var results: [Result] = []

log("generating \(largeSize) items")
let largeItems = Dataset.items(count: largeSize)

if arguments.contains("--postgres") {
    let postgres = try PostgresWorkloads.run(insertSizes: insertSizes, items: largeItems,
                                             queries: Dataset.pageQueries(count: sizes.queries), runs: runs,
                                             searchRepetitions: quick ? 20 : 200,
                                             scratch: scratch, selected: selected, log: log)
    if !postgres.results.isEmpty { print(Report(results: postgres.results, invocation: invocation, runs: runs).table()) }
    if let searchTable = postgres.searchTable { print(searchTable) }
    try? FileManager.default.removeItem(at: scratch)
    exit(0)
}

if selected("W1") {
    let largestChosen = option("--largest-insert-implementations").map { $0.split(separator: ",").map { $0.lowercased() } }
    for size in insertSizes {
        log("W1: insert \(size) items in one transaction")
        var sized = workloads
        if let largestChosen, size == insertSizes.max(), insertSizes.count > 1 {
            sized.implementations = implementations.filter { implementation in
                largestChosen.contains { implementation.name.lowercased().hasPrefix($0) }
            }
        }
        results += try sized.insertAll(Array(largeItems.prefix(size)), label: "W1 insert \(size)")
    }
}

// One large database serves W2, W3, W5 and W6. `--large-db PATH` keeps it at PATH and reuses it
// when it is already there (built by an earlier run with the same --large-size): W11 only reads
// it, and building 1M items takes minutes on a loaded machine.
let keptLarge = option("--large-db")
let reuseLarge = keptLarge.map { FileManager.default.fileExists(atPath: $0) } ?? false
let largePath = try keptLarge.flatMap { reuseLarge ? $0 : nil }
    ?? Harness.freshDatabase(in: keptLarge.map { URL(filePath: $0).deletingLastPathComponent() } ?? scratch,
                             name: keptLarge.map { URL(filePath: $0).lastPathComponent } ?? "large.sqlite")
// W14 runs only when asked (`--only W14`): it starts a PostgreSQL server and takes minutes.
let syncSelected = only?.contains("W14") ?? false
if selected("W2") || selected("W3") || selected("W5") || selected("W6") || selected("W7") || selected("W8") || selected("W11") || syncSelected {
    if reuseLarge {
        log("reusing the large database \(largePath)")
    } else {
        log("building the \(largeSize)-item database")
        try StockroomImplementation().seed(path: largePath, items: largeItems)
    }
}

if selected("W2") {
    log("W2: fetch all \(largeSize) items")
    results += try workloads.fetchAll(path: largePath, expected: largeSize, label: "W2 fetch \(largeSize)")
}

if selected("W3") {
    log("W3: page queries on \(largeSize) items")
    results += try workloads.pages(path: largePath, queries: Dataset.pageQueries(count: sizes.queries), label: "W3 page of 50 (per query)")
}

if selected("W4") {
    log("W4: draft cycles")
    results += try workloads.draftCycles(seed: Array(largeItems.prefix(sizes.draftSeed)), cycles: sizes.cycles, label: "W4 draft cycle")
}

// With --only W5,W7,W8 the fair W5 below replaces this one, and the main table is left alone.
if let stockroomBinary, selected("W5"), only == nil {
    log("W5: backup of the \(largeSize)-item database")
    let destination = scratch.appending(path: "backup.sqlite").path
    // A binary from before the backup command cannot run this workload: try once first.
    let hasBackup = (try? Harness.timeProcess(stockroomBinary, ["backup", destination, "--force", "--db", largePath])) != nil
    if hasBackup {
        results += try workloads.processes(
            label: "W5 backup \(largeSize)",
            baseline: ("sqlite3 .backup", "/usr/bin/sqlite3", [largePath, ".backup '\(destination)'"]),
            candidate: ("stockroom backup", stockroomBinary, ["backup", destination, "--force", "--db", largePath]),
            repetitions: 1, before: { Harness.removeDatabase(destination) })
    } else {
        log("  skipped: this stockroom has no backup command")
    }
}

if let stockroomBinary, selected("W6") {
    log("W6: whole-process list of 20 as JSON")
    let json = """
        SELECT json_group_array(json_object('id', id, 'name', name, 'color', color, 'status',
          CASE status WHEN 'in_stock' THEN json_object('case', 'inStock', 'quantity', quantity)
          ELSE json_object('case', 'outOfStock', 'isOnBackOrder', json(CASE is_on_back_order WHEN 1 THEN 'true' ELSE 'false' END)) END))
        FROM (SELECT * FROM items ORDER BY name, id LIMIT 20)
        """
    results += try workloads.processes(
        label: "W6 list --limit 20 --format json (process)",
        baseline: ("sqlite3 shell", "/usr/bin/sqlite3", [largePath, json]),
        candidate: ("stockroom", stockroomBinary, ["items", "list", "--limit", "20", "--format", "json", "--db", largePath]),
        repetitions: sizes.processRepetitions)
}

// W11: search, in-process, its own table (p50/p99 rather than a mean) after the main one.
var searchTable: String?
if selected("W11") {
    log("W11: items list --search TEXT --limit 20 on \(largeSize) items")
    let repetitions = quick ? 20 : 200
    let rows = try SearchWorkload.run(path: largePath, repetitions: repetitions, log: log)
    let fileBytes = try SearchWorkload.fileSizes(path: largePath, scratch: scratch)
    searchTable = SearchWorkload.table(rows, items: largeItems.count, repetitions: repetitions, fileBytes: fileBytes)
    print(searchTable ?? "")
}

// W14: `stockroom sync`, whole processes against their floors, in its own table.
if let stockroomBinary, syncSelected {
    let workload = SyncWorkload(stockroom: stockroomBinary, stockroomBefore: option("--stockroom-before"), scratch: scratch,
                                runs: option("--runs").flatMap { Int($0) } ?? 3,
                                countInstructions: arguments.contains("--instructions"), log: log)
    let hubSize = option("--sync-hub-size").flatMap { Int($0) } ?? (quick ? 2_000 : 100_000)
    let intents = option("--sync-intents").flatMap { Int($0) } ?? (quick ? 200 : 10_000)
    let rows = try workload.run(hubItems: Array((hubSize <= largeItems.count ? largeItems : Dataset.items(count: hubSize)).prefix(hubSize)),
                                intentCount: intents, firstSync: (largePath, largeSize))
    print(SyncWorkload.table(rows))
    if let output { try SyncWorkload.write(rows, runs: workload.runs, invocation: invocation, loadAverage: loadAverageBefore, to: output) }
}

// W15: `stockroom sync` through `stockroom serve`, against the direct hubs, in its own table.
if let stockroomBinary, only?.contains("W15") ?? false {
    let sync = SyncWorkload(stockroom: stockroomBinary, scratch: scratch, runs: option("--runs").flatMap { Int($0) } ?? 3,
                            countInstructions: false, log: log)
    let workload = ServedSyncWorkload(sync: sync,
                                      concurrentReplicas: option("--w15-replicas").flatMap { Int($0) } ?? 16,
                                      intentsPerReplica: option("--w15-intents").flatMap { Int($0) } ?? (quick ? 50 : 1_000),
                                      concurrentRuns: option("--w15-rounds").flatMap { Int($0) } ?? (quick ? 1 : 2),
                                      pushAndPull: !arguments.contains("--w15-concurrent-only"),
                                      engines: option("--w15-engines").map { Set($0.split(separator: ",").map(String.init)) }
                                          ?? ["sqlite", "postgres"],
                                      niceness: option("--w15-nice").flatMap { Int($0) } ?? 10)
    let hubSize = option("--sync-hub-size").flatMap { Int($0) } ?? (quick ? 2_000 : 100_000)
    let intents = option("--sync-intents").flatMap { Int($0) } ?? (quick ? 200 : 10_000)
    let (rows, rounds) = try workload.run(hubItems: Array((hubSize <= largeItems.count ? largeItems : Dataset.items(count: hubSize)).prefix(hubSize)),
                                          intentCount: intents)
    print(SyncWorkload.table(rows))
    print(ServedSyncWorkload.concurrentTable(rounds))
    if let output {
        try ServedSyncWorkload.write(rows, rounds, runs: sync.runs, invocation: invocation, loadAverage: loadAverageBefore, to: output)
    }
}

// W7, W8 and W5 against its fair peer: whole processes, best of 3, in their own table.
var transferResults: [TransferResult] = []
if let stockroomBinary, selected("W5") || selected("W7") || selected("W8") {
    let transfer = TransferWorkloads(stockroom: stockroomBinary, scratch: scratch, runs: 3, log: log)
    let csv = scratch.appending(path: "items.csv").path
    // The one generated file every side reads: Stockroom's own export of the large database.
    _ = try transfer.measure(stockroomBinary, ["export", "--format", "csv", "-o", csv, "--db", largePath])
    if selected("W7") { log("W7: import \(largeSize) CSV"); transferResults += try transfer.importCSV(csv, expected: largeSize) }
    if selected("W8") { log("W8: export \(largeSize)"); transferResults += try transfer.export(from: largePath, count: largeSize) }
    if selected("W5") { log("W5: backup + check"); transferResults += try transfer.backup(from: largePath, count: largeSize) }
    for result in transferResults {
        print("\(result.workload)  \(result.implementation)  best \(String(format: "%.3f", result.best)) s  worst \(String(format: "%.3f", result.worst)) s  \(String(format: "%.0f", result.peakMegabytes)) MB  \(String(format: "%.2fx", result.ratio))")
    }
    if let output { try TransferWorkloads.write(transferResults, runs: 3, invocation: invocation, to: output) }
}

var report = Report(results: results, invocation: invocation, runs: runs, loadAverageBefore: loadAverageBefore)
report.searchTable = searchTable
print(report.table())
// A run of only W7/W8 (or only W11) leaves the main table alone.
if let output, !results.isEmpty { try report.write(to: output) }
