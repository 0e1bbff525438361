import PostgresCore
import StockroomMigrations

extension DatabaseCheck {
    /// Checks the inventory in a PostgreSQL database, in one REPEATABLE READ, READ ONLY
    /// transaction so every part sees the same snapshot: the applied migrations against the ones
    /// this binary knows, every row of items, drafts and item_events decoded, and each item's
    /// history replayed against its row, as on a file (the same code).
    ///
    /// SQLite's `integrity_check` and `foreign_key_check` have no counterpart to run here: the
    /// server checks pages itself (and their checksums, when the cluster has them) as they are
    /// read, which reading every row does, and it enforces foreign keys on every write. What
    /// can make a server database break its own rules is checked instead: a constraint added
    /// `NOT VALID` and never validated, or a trigger (item_events' append-only guard) disabled.
    ///
    /// - Throws: ``PostgresError`` only when the check cannot run (no server, connection lost).
    public static func run(onServer connection: Connection, migrations: MigrationSet = .embeddedPostgres) throws -> Report {
        var problems: [Problem] = []
        var summary: DatabaseSummary?
        try connection.transaction(isolation: .repeatableRead, readOnly: true) {
            let runner = PostgresMigrationRunner(connection: connection, migrations: migrations)
            guard try runner.hasMigrationsTable() else {
                problems.append(Problem(kind: .migrations, message: "no \(MigrationRunner.tableName) table: this is not a Stockroom database"))
                return
            }
            let applied = try runner.appliedMigrations()
            summary = DatabaseSummary(schemaVersion: applied.last?.version ?? 0,
                                      itemCount: try rowCount(of: ItemsTable.name, on: connection),
                                      draftCount: try rowCount(of: DraftsTable.name, on: connection))
            problems += runner.validationErrors(applied).map { Problem(kind: .migrations, message: $0.description) }
            problems += try ruleProblems(on: connection)

            let store = PostgresStoreConnection(connection)
            let isAtLatestVersion = (applied.last?.version ?? 0) >= migrations.latestVersion
            let rows = try rowProblems(isAtLatestVersion: isAtLatestVersion,
                                       tableExists: { try tableExists($0, on: connection) }) { table, columns in
                try select(table: table, columns: columns, on: store)
            }
            problems += rows.problems
            if rows.canReplayHistory {
                let history = try historyProblems(items: store.cachedStatement(historyItemsSQL),
                                                  events: store.cachedStatement(historyEventsSQL))
                problems += history.rows + history.replay
                if (applied.last?.version ?? 0) >= positionsSchemaVersion {
                    problems += try positionProblems(store.cachedStatement(positionsSQL))
                }
            }
        }
        return Report(problems: problems, summary: summary, latestKnownVersion: migrations.latestVersion)
    }

    /// The statement reading `table`, or the problem that its columns are not the ones this
    /// binary reads; a savepoint keeps the transaction usable after the server refuses it.
    private static func select(table: String, columns: String,
                               on store: PostgresStoreConnection) throws -> TableSelection<PostgresStoreStatement> {
        let connection = store.connection
        // item_events' key gives its order; the other tables have an id as their key.
        let order = table == ItemEventsTable.name ? ItemEventsTable.keyList : "id"
        try connection.execute("SAVEPOINT stockroom_check")
        do {
            let statement = try store.cachedStatement("SELECT \(columns) FROM \(table) ORDER BY \(order)")
            try connection.execute("RELEASE SAVEPOINT stockroom_check")
            return .statement(statement)
        } catch let error as PostgresError where error.kind == .other {
            try connection.execute("ROLLBACK TO SAVEPOINT stockroom_check; RELEASE SAVEPOINT stockroom_check")
            return .problem(Problem(kind: .rows, message: "table \(table) cannot be read by this stockroom: \(error.message)"))
        }
    }

    /// Constraints on the inventory's tables that the server does not hold existing rows to
    /// (added `NOT VALID`), and disabled triggers (`ALTER TABLE ... DISABLE TRIGGER`).
    private static func ruleProblems(on connection: Connection) throws -> [Problem] {
        let tables = "(to_regclass('\(ItemsTable.name)'), to_regclass('\(DraftsTable.name)'), to_regclass('\(ItemEventsTable.name)'))"
        let unvalidated = try connection.query("""
            SELECT conname, conrelid::regclass::text FROM pg_constraint
            WHERE conrelid IN \(tables) AND NOT convalidated ORDER BY 2, 1
            """).map { row in
            Problem(kind: .constraint, message: "constraint \(try row.get(String.self, at: 0)) on \(try row.get(String.self, at: 1)) was added NOT VALID and never validated: rows before it were not checked")
        }
        let disabled = try connection.query("""
            SELECT tgname, tgrelid::regclass::text FROM pg_trigger
            WHERE tgrelid IN \(tables) AND NOT tgisinternal AND tgenabled = 'D' ORDER BY 2, 1
            """).map { row in
            Problem(kind: .constraint, message: "trigger \(try row.get(String.self, at: 0)) on \(try row.get(String.self, at: 1)) is disabled: the rule it enforces is not kept")
        }
        return unvalidated + disabled
    }

    private static func tableExists(_ table: String, on connection: Connection) throws -> Bool {
        try connection.query("SELECT to_regclass($1) IS NOT NULL", table).scalar(Bool.self)
    }

    private static func rowCount(of table: String, on connection: Connection) throws -> Int {
        guard try tableExists(table, on: connection) else { return 0 }
        return try connection.query("SELECT count(*) FROM \(table)").scalar(Int.self)
    }
}
