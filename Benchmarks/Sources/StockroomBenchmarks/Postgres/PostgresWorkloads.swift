import Foundation
import Inventory
import RawLibPQ
import StockroomStore

/// W1-W3 and W11 on PostgreSQL (`StockroomBenchmarks --postgres`): the same items, page queries and
/// workload code as on SQLite, against a throwaway server started for the run (see
/// ``ThrowawayPostgres``), with the raw libpq peer as the baseline.
enum PostgresWorkloads {
    /// The Stockroom side, run beside the raw peer: the same `StockroomImplementation` as on
    /// SQLite, whose `open(path:)` takes the database's URI as `--db` would.
    static func stockroomImplementations() -> [any Implementation] { [StockroomImplementation()] }

    static func run(insertSizes: [Int], items: [Item], queries: [(Color, String)], runs: Int, searchRepetitions: Int,
                    scratch: URL, selected: (String) -> Bool, log: @escaping (String) -> Void) throws -> (results: [Result], searchTable: String?) {
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
        guard selected("W2") || selected("W3") || selected("W11") else { return (results, nil) }
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
        var searchTable: String?
        if selected("W11") {
            log("W11 (PostgreSQL): items list --search TEXT --limit 20 on \(items.count) items")
            let rows = try search(uri: large, repetitions: searchRepetitions, log: log)
            searchTable = SearchWorkload.table(rows, items: items.count, repetitions: searchRepetitions, fileBytes: nil)
                + (try searchTableSizes(uri: large))
        }
        return (results, searchTable)
    }

    /// W11 on the server: Stockroom's search beside the statement `items list --search` ran
    /// there before the search ranges (0007), which left the plan to the server's planner
    /// (pg_trgm's GIN index of 0005, or items_by_name), through raw libpq.
    static func search(uri: String, repetitions: Int, log: (String) -> Void) throws -> [SearchWorkload.Row] {
        let store = try InventoryStore(location: .postgres(uri))
        let connection = PQconnectdb(uri)
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else { throw BenchmarkError(message: "cannot connect to \(uri)") }
        let old = "SELECT id, name, color, status, quantity, is_on_back_order FROM items WHERE name ILIKE $1 ESCAPE '\\' ORDER BY name, id LIMIT 20"
        return try SearchWorkload.run(store: store, before: "planner's choice (before)", repetitions: repetitions, log: log) { pattern in
            let result = pattern.withCString { value in
                var values: [UnsafePointer<CChar>?] = [value]
                return PQexecParams(connection, old, 1, nil, &values, nil, nil, 0)
            }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else {
                throw BenchmarkError(message: PQresultErrorMessage(result).map { String(cString: $0) } ?? "search failed")
            }
            return Int(PQntuples(result))
        }
    }

    /// The sizes the search costs on the server: the search ranges (0007) and the trigram index
    /// (0005), beside the table itself.
    static func searchTableSizes(uri: String) throws -> String {
        let connection = PQconnectdb(uri)
        defer { PQfinish(connection) }
        let result = PQexec(connection, """
            SELECT pg_total_relation_size('items_search_ranges'), (SELECT count(*) FROM items_search_ranges),
                   pg_relation_size('items_by_name_trigram'), pg_total_relation_size('items')
            """)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw BenchmarkError(message: "sizes") }
        let value = { (column: Int32) in Int(String(cString: PQgetvalue(result, 0, column))) ?? 0 }
        return "sizes: items_search_ranges \(value(0)) bytes (\(value(1)) rows), items_by_name_trigram \(value(2)) bytes, items with every index \(value(3)) bytes\n"
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
