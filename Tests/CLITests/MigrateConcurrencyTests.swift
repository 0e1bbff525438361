import Foundation
import StockroomTestSupport
import Testing

/// Two real processes running `migrate up` on one new file at the same moment.
@Suite struct MigrateConcurrencyTests {
    /// Collects results from the threads that run the processes.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [ProcessResult] = []
        func append(_ result: ProcessResult) { lock.lock(); results.append(result); lock.unlock() }
        var all: [ProcessResult] { lock.lock(); defer { lock.unlock() }; return results }
    }

    @Test(arguments: 1...2)
    func everyMigrationIsAppliedOnceByOneOfTheProcesses(round: Int) throws {
        let database = CLIDatabase()
        let folder = try MigrationFixtures.write([MigrationFixtures.slowFill, MigrationFixtures.indexSquares], into: database.directory)
        let arguments = ["migrate", "up", "--migrations-dir", folder, "--busy-timeout", "60"]
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                results.append(try database.stockroom(arguments: arguments))
            } catch {
                Issue.record("could not run stockroom: \(error)")
            }
        }
        let both = results.all
        try #require(both.count == 2)
        #expect(both.allSatisfy { $0.status == 0 }, "\(both)")
        // Each migration is its own transaction, taken under the lock and re-checked there: the
        // two processes may share the run (one applies 0001, the other 0002) or one may do it
        // all, but every migration is applied by exactly one of them.
        let applied = both.flatMap(\.lines).filter { $0.hasPrefix("Applied ") }.sorted()
        #expect(applied == ["Applied 0001_fill_numbers.sql", "Applied 0002_index_squares.sql"], "round \(round): \(both)")
        let others = both.flatMap(\.lines).filter { !$0.hasPrefix("Applied ") }
        #expect(others.allSatisfy { $0 == "The database is up to date." }, "round \(round): \(both)")
        #expect(try database.sqlite3("SELECT group_concat(version) FROM schema_migrations") == "1,2")
        #expect(try database.sqlite3("SELECT count(*) FROM numbers") == "300000")
    }
}
