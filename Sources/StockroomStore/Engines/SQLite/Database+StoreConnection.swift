import SQLiteCore
import StockroomMigrations

// SQLite's side of the seam (Seam/StoreConnection.swift): `Database` and `Statement` are the
// connection and statement as they are, so the repositories specialised for them make the
// same direct calls as before the seam.

extension SQLiteCore.Statement: StoreStatement {
    @inline(__always)
    var knownRowCount: Int? { nil }

    func describeColumn(at index: Int) -> String {
        value(at: index).debugDescription
    }

    func fieldText(at index: Int) -> String {
        switch value(at: index) {
        case .null: ""
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let bytes): bytes.map { String($0, radix: 16) }.joined()
        }
    }
}

extension Database: StoreConnection {
    var dialect: DatabaseEngine { .sqlite }

    /// Runs `body` in a new write transaction (`BEGIN IMMEDIATE`), or in a savepoint when one
    /// is already open.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        isAutocommit ? try writeTransaction(body) : try savepoint("stockroom", body)
    }

    func inTransactionWithoutRetry<T>(_ body: () throws -> T) throws -> T {
        try writeTransaction(body)
    }

    /// Each trigger is dropped and created again from the SQL the schema holds for it, so the
    /// schema afterwards is the migrations' own. The search index's and the search ranges'
    /// triggers are set aside with the others, so both are rebuilt from the rows then in place
    /// (they are derived, never copied).
    func withTriggersSuspended<T>(on tables: [String], _ body: () throws -> T) throws -> T {
        try withTriggers(on: tables, suspendedWhere: { _ in true }, body)
    }

    /// Runs `body` with the triggers keeping `items_search` set aside, then rebuilds that index
    /// in one pass, inside the caller's transaction: for a load of many rows into an empty
    /// `items` (a new replica's first pull). Row by row, the index's upkeep cost a third of
    /// such a load, and its segment merges made SQLite keep statement journals in a file that
    /// every later row rewrote (BENCHMARKS.md, "W14 (e)").
    func withFullTextIndexSuspended<T>(_ body: () throws -> T) throws -> T {
        try withTriggers(on: [ItemsTable.name], suspendedWhere: ItemsSearchTable.isWritten(byTrigger:), body)
    }

    /// Drops the triggers of `tables` whose SQL `suspended` accepts, runs `body`, creates them
    /// again from the SQL the schema held, and rebuilds what the dropped ones kept (the search
    /// index, the search ranges: derived, never copied), all in the caller's transaction.
    private func withTriggers<T>(on tables: [String], suspendedWhere suspended: (String) -> Bool,
                                 _ body: () throws -> T) throws -> T {
        let list = tables.map { "'\($0)'" }.joined(separator: ", ")
        let triggers = try withStatement(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN (\(list)) ORDER BY name"
        ) { statement in
            var found: [(name: String, sql: String)] = []
            while try statement.step() { found.append((statement.text(at: 0), statement.text(at: 1))) }
            return found.filter { suspended($0.sql) }
        }
        for trigger in triggers { try execute("DROP TRIGGER \(SQLIdentifier.quoted(trigger.name))") }
        let result = try body()
        for trigger in triggers { try execute(trigger.sql) }
        if triggers.contains(where: { ItemsSearchTable.isWritten(byTrigger: $0.sql) }) {
            try execute(ItemsSearchTable.rebuildSQL)
        }
        if triggers.contains(where: { $0.sql.contains(ItemsSearchRangesTable.name) }) {
            try execute(ItemsSearchRangesTable.rebuildSQL(.sqlite))
        }
        return result
    }

    func removeAllRows(of tables: [String]) throws {
        for table in tables { try execute("DELETE FROM \(table)") }
    }

    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        isAutocommit ? try readTransaction(body) : try body()
    }

    /// Always: a read transaction is a snapshot, and a write transaction holds the only write
    /// lock, so no other commit lands while it is open.
    var readsFromOneSnapshot: Bool { true }

    /// None: a statement steps to each row as SQLite makes it, so one statement reads them all.
    var readPageSize: Int? { nil }

    @inline(__always)
    func bindLimit(_ limit: Int?, to statement: SQLiteCore.Statement, at index: Int) throws {
        // SQLite reads a negative LIMIT as none.
        try statement.bind(limit ?? -1, at: index)
    }
}
