import Foundation
import SQLiteCore
import StockroomMigrations

/// Timing and scratch databases.
enum Harness {
    /// `--without-search-index`: new databases lose the search index after migrating, so W1 can
    /// be measured with and without its maintenance by the same binary.
    nonisolated(unsafe) static var withoutSearchIndex = false

    /// Seconds on the monotonic clock taken by `body`.
    @inline(never)
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// A new database file with Stockroom's schema, applied by its own migrations.
    static func freshDatabase(in directory: URL, name: String) throws -> String {
        let path = directory.appending(path: name).path
        removeDatabase(path)
        let database = try Database(path: path)
        try MigrationRunner(database: database).migrate()
        if withoutSearchIndex {
            // The "before" of issue 21: the schema without the trigram index and its triggers.
            try database.execute("""
                DROP TRIGGER items_search_after_insert; DROP TRIGGER items_search_after_delete;
                DROP TRIGGER items_search_after_update; DROP TABLE items_search
                """)
        }
        return path
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Runs an external command to completion and returns its wall time.
    ///
    /// posix_spawn and waitpid directly: Foundation's `Process.waitUntilExit` polls its run loop
    /// and adds tens of milliseconds, which would swamp a command that takes a few.
    static func timeProcess(_ executable: String, _ arguments: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        let seconds = try time {
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard spawned == 0 else { throw BenchmarkError(message: "cannot run \(executable): error \(spawned)") }
            waitpid(pid, &status, 0)
        }
        guard status == 0 else {
            throw BenchmarkError(message: "\(executable) \(arguments.joined(separator: " ")) exited with status \(status)")
        }
        return seconds
    }
}

/// The samples of one implementation on one workload, and what they say.
struct Result {
    let workload: String
    let implementation: String
    let unit: String
    let samples: [Double]
    var ratio: Double?

    var median: Double {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var min: Double { samples.min() ?? 0 }
    var max: Double { samples.max() ?? 0 }
}
