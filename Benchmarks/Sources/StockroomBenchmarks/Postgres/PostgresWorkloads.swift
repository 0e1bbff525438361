import Foundation
import Inventory
import RawLibPQ
import StockroomStore

/// W1-W3 on PostgreSQL (`StockroomBenchmarks --postgres`): the same items, page queries and
/// workload code as on SQLite, against a throwaway server started for the run (see
/// ``ThrowawayPostgres``), with the raw libpq peer as the baseline.
enum PostgresWorkloads {
    /// The Stockroom side, run beside the raw peer: the same `StockroomImplementation` as on
    /// SQLite, whose `open(path:)` takes the database's URI as `--db` would.
    static func stockroomImplementations() -> [any Implementation] { [StockroomImplementation()] }

    static func run(insertSizes: [Int], items: [Item], queries: [(Color, String)], runs: Int,
                    scratch: URL, selected: (String) -> Bool, log: @escaping (String) -> Void) throws -> [Result] {
        log("starting a throwaway PostgreSQL server")
        let server = try ThrowawayPostgres()
        defer { server.stop() }
        log("  \(server.version), socket in \(server.socketDirectory)")
        try execute("CREATE DATABASE stockroom_template", on: server.uri(database: "postgres"))
        // Stockroom's own migrations build the template, as `Harness.freshDatabase` does on
        // SQLite; the store (and its connection) is gone before the template is copied.
        _ = try InventoryStore(location: .postgres(server.uri(database: "stockroom_template")))

        let implementations: [any Implementation] = [RawPostgresImplementation()] + stockroomImplementations()
        var workloads = Workloads(implementations: implementations, runs: runs, scratch: scratch, log: log)
        workloads.makeDatabase = { name in
            let database = name.replacingOccurrences(of: ".sqlite", with: "")
            let admin = server.uri(database: "postgres")
            try execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", on: admin)
            try execute("CREATE DATABASE \(database) TEMPLATE stockroom_template", on: admin)
            return server.uri(database: database)
        }

        var results: [Result] = []
        for size in insertSizes where selected("W1") {
            log("W1 (PostgreSQL): insert \(size) items in one transaction")
            results += try workloads.insertAll(Array(items.prefix(size)), label: "W1 insert \(size) (PostgreSQL)")
        }
        guard selected("W2") || selected("W3") else { return results }
        log("building the \(items.count)-item PostgreSQL database")
        let large = try workloads.makeDatabase!("large")
        let seeder = RawPostgresImplementation()
        try seeder.open(path: large)
        // COPY rather than W1's two INSERTs per item: the same rows in seconds, not the better
        // part of an hour at 1M (the database W2 and W3 read is not what they measure).
        try seeder.seed(items)
        seeder.close()
        try execute("VACUUM ANALYZE", on: large)
        if selected("W2") {
            log("W2 (PostgreSQL): fetch all \(items.count) items")
            results += try workloads.fetchAll(path: large, expected: items.count, label: "W2 fetch \(items.count) (PostgreSQL)")
        }
        if selected("W3") {
            log("W3 (PostgreSQL): page queries on \(items.count) items")
            results += try workloads.pages(path: large, queries: queries, label: "W3 page of 50 (per query, PostgreSQL)")
        }
        return results
    }

    /// Runs `sql` (one or more statements, no parameters) on a connection of its own.
    static func execute(_ sql: String, on uri: String) throws {
        let connection = PQconnectdb(uri)
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw BenchmarkError(message: connection.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? "cannot connect")
        }
        // Quiet: DROP DATABASE IF EXISTS says NOTICE when there was none.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK || PQresultStatus(result) == PGRES_TUPLES_OK else {
            throw BenchmarkError(message: PQresultErrorMessage(result).map { String(cString: $0) } ?? "\(sql) failed")
        }
    }
}
