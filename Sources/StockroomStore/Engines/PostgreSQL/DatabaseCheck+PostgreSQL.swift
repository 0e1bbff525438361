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
    static func run(onServer connection: Connection, migrations: MigrationSet = .embedded(.postgres)) throws -> Report {
        try check(PostgresStoreConnection(connection), migrations: migrations)
    }
}

extension PostgresStoreConnection: CheckedConnection {
    func storageProblems() throws -> [DatabaseCheck.Problem] { [] }

    /// The statement reading `table`, or the problem that its columns are not the ones this
    /// binary reads; a savepoint keeps the transaction usable after the server refuses it.
    func selectForCheck(table: String, columns: String) throws -> DatabaseCheck.TableSelection<PostgresStoreStatement> {
        // item_events' key gives its order; the other tables have an id as their key.
        let order = table == ItemEventsTable.name ? ItemEventsTable.keyList : "id"
        try connection.execute("SAVEPOINT stockroom_check")
        do {
            let statement = try cachedStatement("SELECT \(columns) FROM \(table) ORDER BY \(order)")
            try connection.execute("RELEASE SAVEPOINT stockroom_check")
            return .statement(statement)
        } catch let error as PostgresError where error.kind == .other {
            try connection.execute("ROLLBACK TO SAVEPOINT stockroom_check; RELEASE SAVEPOINT stockroom_check")
            return .problem(DatabaseCheck.Problem(kind: .rows, message: "table \(table) cannot be read by this stockroom: \(error.message)"))
        }
    }

    /// Constraints on the inventory's tables that the server does not hold existing rows to
    /// (added `NOT VALID`), and disabled triggers (`ALTER TABLE ... DISABLE TRIGGER`).
    func ruleProblems() throws -> [DatabaseCheck.Problem] {
        let tables = "(to_regclass('\(ItemsTable.name)'), to_regclass('\(DraftsTable.name)'), to_regclass('\(ItemEventsTable.name)'))"
        let unvalidated = try connection.query("""
            SELECT conname, conrelid::regclass::text FROM pg_constraint
            WHERE conrelid IN \(tables) AND NOT convalidated ORDER BY 2, 1
            """).map { row in
            DatabaseCheck.Problem(kind: .constraint, message: "constraint \(try row.get(String.self, at: 0)) on \(try row.get(String.self, at: 1)) was added NOT VALID and never validated: rows before it were not checked")
        }
        let disabled = try connection.query("""
            SELECT tgname, tgrelid::regclass::text FROM pg_trigger
            WHERE tgrelid IN \(tables) AND NOT tgisinternal AND tgenabled = 'D' ORDER BY 2, 1
            """).map { row in
            DatabaseCheck.Problem(kind: .constraint, message: "trigger \(try row.get(String.self, at: 0)) on \(try row.get(String.self, at: 1)) is disabled: the rule it enforces is not kept")
        }
        return unvalidated + disabled
    }

    func migrationRunner(_ migrations: MigrationSet) -> any MigrationRunning {
        PostgresMigrationRunner(connection: connection, migrations: migrations)
    }

    /// None: the server reports damage as an error of the statement that met it.
    static func unreadableProblem(_ error: any Error) -> DatabaseCheck.Problem? { nil }
}
