import CSQLite
import Foundation
import SQLiteCore
import StockroomTestSupport
import Testing

/// The hardened connection behind `stockroom query`, and SQLite's own read-only check.
@Suite struct UntrustedQueryTests {
    let database: Database

    init() throws {
        database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)")
    }

    private func setting(_ option: Int32) -> Int32 {
        var value: Int32 = -1
        _ = csqlite_db_config_int(database.rawHandle, option, -1, &value)
        return value
    }

    @Test func hardeningTurnsEachSettingTheSafeWay() throws {
        try database.hardenForUntrustedQueries()
        #expect(setting(SQLITE_DBCONFIG_DEFENSIVE) == 1)
        #expect(setting(SQLITE_DBCONFIG_TRUSTED_SCHEMA) == 0)
        #expect(setting(SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION) == 0)
        #expect(setting(SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER) == 0)
        #expect(sqlite3_limit(database.rawHandle, SQLITE_LIMIT_ATTACHED, -1) == 0)
        let trusted = try database.prepare("PRAGMA trusted_schema")
        #expect(try trusted.step() && trusted.int(at: 0) == 0)
    }

    @Test func theTwoArgumentFTS3TokenizerIsOnUntilHardened() throws {
        // Debian builds SQLite with it on; registering a tokenizer takes a raw pointer.
        let register = "SELECT fts3_tokenizer('stockroom_test', x'0100000000000000')"
        try database.execute(register)
        try database.hardenForUntrustedQueries()
        let error = try #require(throws: SQLiteError.self) { try database.execute(register) }
        #expect(error.message == "not authorized to use function: fts3_tokenizer")
    }

    @Test func aBoundPointerGetsPastTheSettingButNotTheAuthorizer() throws {
        try database.hardenForUntrustedQueries()
        let register = "SELECT fts3_tokenizer('stockroom_test', ?)"
        let error = try #require(throws: SQLiteError.self) { try database.prepareReadOnlyQuery(register) }
        #expect(error.message == "not authorized to use function: fts3_tokenizer")

        // Without the authorizer, SQLite trusts a bound pointer even with the setting off.
        sqlite3_set_authorizer(database.rawHandle, nil, nil)
        let statement = try database.prepareReadOnlyQuery(register)
        try statement.bind([UInt8]([1, 0, 0, 0, 0, 0, 0, 0]), at: 0)
        #expect(try statement.step())
    }

    @Test func attachWorksUntilHardened() throws {
        try database.execute("ATTACH ':memory:' AS other; DETACH other")
        try database.hardenForUntrustedQueries()
        let error = try #require(throws: SQLiteError.self) { try database.prepareReadOnlyQuery("ATTACH ':memory:' AS other") }
        #expect(error.message == "not authorized")
        #expect(error.primaryCode == SQLITE_AUTH)
    }

    @Test func vacuumIntoIsStoppedEvenPastTheReadOnlyCheck() throws {
        // VACUUM INTO attaches its target: the attached-database limit stops it while running.
        try database.hardenForUntrustedQueries()
        sqlite3_set_authorizer(database.rawHandle, nil, nil)
        let path = "/tmp/stockroom-vacuum-into-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        let error = try #require(throws: SQLiteError.self) { try database.execute("VACUUM INTO '\(path)'") }
        #expect(error.message == "too many attached databases - max 0")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func loadExtensionIsNotAuthorized() throws {
        try database.hardenForUntrustedQueries()
        let error = try #require(throws: SQLiteError.self) {
            try database.prepareReadOnlyQuery("SELECT load_extension('/nonexistent/extension')")
        }
        #expect(error.message == "not authorized to use function: load_extension")
    }

    @Test func defensiveModeStopsSchemaWritesThatWorkedBefore() throws {
        let rewrite = "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = sql WHERE name = 't'; PRAGMA writable_schema = OFF"
        try database.execute(rewrite)
        try database.hardenForUntrustedQueries()
        #expect(throws: SQLiteError.self) { try database.execute(rewrite) }
    }

    @Test(arguments: [
        "DELETE FROM t",
        "WITH doomed AS (SELECT 1) DELETE FROM t",
        "INSERT INTO t VALUES (3)",
        "CREATE TEMP TABLE scratch (y)",
        "VACUUM INTO '/tmp/stockroom-never-written.sqlite'",
        "PRAGMA user_version = 7",
        "DROP TABLE t",
    ])
    func statementsThatWriteAreRefusedBeforeRunning(sql: String) throws {
        try database.hardenForUntrustedQueries()
        #expect(throws: QueryRefusal.notReadOnly(sql: sql)) { try database.prepareReadOnlyQuery(sql) }
        let count = try database.prepare("SELECT count(*) FROM t")
        #expect(try count.step() && count.int(at: 0) == 2)
    }

    @Test(arguments: [
        "SELECT x FROM t ORDER BY x",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n",
        "PRAGMA table_info(t)",
        "SELECT 1; -- trailing comment",
    ])
    func readOnlyStatementsAreAccepted(sql: String) throws {
        try database.hardenForUntrustedQueries()
        let statement = try database.prepareReadOnlyQuery(sql)
        #expect(statement.isReadOnly)
        #expect(try statement.step())
    }

    @Test func blankAndMultipleStatementsAreRefused() throws {
        #expect(throws: QueryRefusal.noStatement) { try database.prepareReadOnlyQuery("  -- only a comment\n ; ") }
        #expect(throws: QueryRefusal.multipleStatements) { try database.prepareReadOnlyQuery("SELECT 1; SELECT 2") }
    }

    @Test func sqlThatDoesNotCompileIsSQLitesError() throws {
        let error = try #require(throws: SQLiteError.self) { try database.prepareReadOnlyQuery("SELECT * FROM missing") }
        #expect(error.message == "no such table: missing")
    }
}
