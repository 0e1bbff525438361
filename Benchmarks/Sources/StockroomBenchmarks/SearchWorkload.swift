import Foundation
import GRDBSQLite
import Inventory
import StockroomStore

/// W11: `items list --search TEXT --limit 20` in-process on the large database, for terms that
/// match many, few and no names (issue 21). Two sides in one run on the same file:
/// - "LIKE scan (before)": the statement `items list --search` ran before the trigram index,
///   `... WHERE name LIKE ? ESCAPE '\' ORDER BY name, id LIMIT 20`, through the C API;
/// - "Stockroom": `ItemRepository.list(matching:)`, decoded items, as the CLI calls it.
/// Each term is asked `repetitions` times; p50 and p99 per term, then per group of terms.
enum SearchWorkload {
    /// Terms over Dataset's names ("Sturdy Keyboard 000123"). Many: a noun (one name in 16,
    /// spread through name order), an adjective that sorts late ("Sturdy": every match after
    /// 80% of the names), a run shared by two nouns. Few: digit runs (10 and 1-2 matches).
    /// None: absent text, and a real name's words with a number that does not exist.
    static let groups: [(label: String, terms: [String])] = [
        ("many", ["keyboard", "STURDY", "ter", "Lamp 0"]),
        ("few", ["00123", "99999", "Hub 00042", "tiny mouse 12345"]),
        ("none", ["zzz", "Keyboard 9999999", "qwerty", "Lamp-"]),
    ]

    struct Row {
        let group: String, side: String
        let p50: Double, p99: Double, matches: Int
    }

    /// W11 on the SQLite file at `path`: the scan through SQLite's C API.
    static func run(path: String, repetitions: Int, log: (String) -> Void) throws -> [Row] {
        let store = try InventoryStore(location: DatabaseLocation(path))
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw BenchmarkError(message: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(database) }
        var scan: OpaquePointer?
        let old = "SELECT id, name, color, status, quantity, is_on_back_order FROM items WHERE name LIKE ?1 ESCAPE '\\' ORDER BY name, id LIMIT 20"
        guard sqlite3_prepare_v2(database, old, -1, &scan, nil) == SQLITE_OK else { throw BenchmarkError(message: "prepare") }
        defer { sqlite3_finalize(scan) }
        return try run(store: store, before: "LIKE scan (before)", repetitions: repetitions, log: log) { pattern in
            sqlite3_bind_text(scan, 1, pattern, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            var scanned = 0
            while sqlite3_step(scan) == SQLITE_ROW { scanned += 1 }
            sqlite3_reset(scan)
            return scanned
        }
    }

    /// Each term through `store` (`repetitions` times) and through `scan`, the statement as it
    /// ran before (given the LIKE pattern, it returns how many rows it read): p50 and p99 per
    /// term and per group, and the same number of rows on both sides.
    static func run(store: InventoryStore, before: String, repetitions: Int, log: (String) -> Void,
                    scan: (String) throws -> Int) throws -> [Row] {
        var rows: [Row] = []
        for (label, terms) in groups {
            var beforeTimes: [Double] = [], after: [Double] = []
            var matches = 0
            for term in terms {
                let pattern = "%" + term.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
                var scanned = 0, found = 0
                // The scan is slow: fewer repetitions of it, enough for its median.
                var termScan: [Double] = []
                for _ in 0..<max(3, repetitions / 20) {
                    termScan.append(try Harness.time { scanned = try scan(pattern) })
                }
                beforeTimes += termScan
                var termTimes: [Double] = []
                for _ in 0..<repetitions {
                    termTimes.append(try Harness.time {
                        found = try store.items.list(matching: ItemQuery(nameContains: term, limit: 20)).count
                    })
                }
                after += termTimes
                guard scanned == found else { throw BenchmarkError(message: "W11 '\(term)': scan found \(scanned), Stockroom \(found)") }
                log("  W11 \(label) '\(term)': \(found) of 20 shown, p50 \(String(format: "%.3f", percentile(termTimes, 0.5) * 1000)) ms")
                rows.append(Row(group: "\(label) '\(term)'", side: before, p50: percentile(termScan, 0.5), p99: percentile(termScan, 0.99), matches: found))
                rows.append(Row(group: "\(label) '\(term)'", side: "Stockroom (trigram index)", p50: percentile(termTimes, 0.5), p99: percentile(termTimes, 0.99), matches: found))
                matches += found
            }
            rows.append(Row(group: label, side: before, p50: percentile(beforeTimes, 0.5), p99: percentile(beforeTimes, 0.99), matches: matches))
            rows.append(Row(group: label, side: "Stockroom (trigram index)", p50: percentile(after, 0.5), p99: percentile(after, 0.99), matches: matches))
        }
        return rows
    }

    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
    }

    static func table(_ rows: [Row], items: Int, repetitions: Int, fileBytes: (with: Int, without: Int)?) -> String {
        var text = "W11 items list --search TEXT --limit 20 on \(items) items, in-process (\(repetitions) runs per term; the scan fewer)\n"
        text += "| terms | side | p50 ms | p99 ms | rows shown |\n|---|---|---:|---:|---:|\n"
        for row in rows {
            text += "| \(row.group) | \(row.side) | \(String(format: "%.3f", row.p50 * 1000)) | \(String(format: "%.3f", row.p99 * 1000)) | \(row.matches) |\n"
        }
        if let fileBytes {
            let cost = Double(fileBytes.with - fileBytes.without) / 1_048_576
            text += "file size: \(fileBytes.with) bytes with the index, \(fileBytes.without) without (the index: \(String(format: "%.1f", cost)) MiB, \(String(format: "%.1f", 100 * Double(fileBytes.with - fileBytes.without) / Double(fileBytes.without)))%)\n"
        }
        return text
    }

    /// The file's size after a checkpoint, and the same file's size with the index dropped and
    /// VACUUMed (on a copy), so the index's cost is measured on identical rows.
    static func fileSizes(path: String, scratch: URL) throws -> (with: Int, without: Int) {
        func size(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        }
        func exec(_ database: OpaquePointer?, _ sql: String) throws {
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                throw BenchmarkError(message: String(cString: sqlite3_errmsg(database)))
            }
        }
        let copy = scratch.appending(path: "without-index.sqlite").path
        Harness.removeDatabase(copy)
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw BenchmarkError(message: "open") }
        try exec(database, "PRAGMA wal_checkpoint(TRUNCATE); VACUUM INTO '\(copy)'")
        sqlite3_close_v2(database)
        let with = try size(copy)
        guard sqlite3_open_v2(copy, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw BenchmarkError(message: "open") }
        // The search ranges (migration 0007; the heads of 0006 on an older file) are counted
        // with the index when the file has them; their own size is logged.
        for table in ["items_search_ranges", "items_search_heads"] {
            var present: Int32 = 0
            _ = sqlite3_exec(database, "SELECT 1 FROM sqlite_schema WHERE name = '\(table)'", { flag, _, _, _ in
                flag?.assumingMemoryBound(to: Int32.self).pointee = 1
                return 0
            }, &present, nil)
            if present == 1 {
                let before = try size(copy)
                try exec(database, "DROP TABLE \(table); VACUUM")
                FileHandle.standardError.write(Data("  W11 \(table): \(before - (try size(copy))) bytes\n".utf8))
            }
        }
        try exec(database, "DROP TABLE items_search; VACUUM")
        sqlite3_close_v2(database)
        let without = try size(copy)
        Harness.removeDatabase(copy)
        return (with, without)
    }
}
