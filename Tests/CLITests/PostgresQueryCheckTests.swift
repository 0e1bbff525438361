import Foundation
@testable import stockroom
import StockroomMigrations
import StockroomTestSupport
import Testing

/// `query`, `check`, `backup` and `restore` on a PostgreSQL URI, through the binary, against a
/// scratch schema of the throwaway server: the same output and exit codes as on a file where
/// the engines agree, and the server's own refusals where they differ.
@Suite struct PostgresQueryCheckTests {
    typealias Target = PostgresCLITests.Target
    typealias Outcome = PostgresCLITests.Outcome

    static let addItems: [[String]] = [
        ["items", "add", "--name", "Mug", "--color", "blue", "--quantity", "5"],
        ["items", "add", "--name", "Cup", "--out-of-stock", "--back-order"],
        ["items", "add", "--name", "Bowl", "--quantity", "2"],
    ]

    /// A file and a server holding the same three items.
    static func fileAndServer() throws -> (file: Target, server: Target) {
        let file = try Target(server: false), server = try Target(server: true)
        for arguments in addItems {
            for target in [file, server] {
                let added = try target.stockroom(arguments)
                #expect(added.status == 0, "\(added)")
            }
        }
        return (file, server)
    }

    // MARK: query

    @Test func queryPrintsTheSameRowsOnAFileAndOnAServer() throws {
        let (file, server) = try Self.fileAndServer()
        let select = "SELECT name, color, status, quantity, is_on_back_order FROM items ORDER BY name"
        let queries: [[String]] = [
            ["query", select],
            ["query", select, "--format", "json"],
            ["query", select, "--format", "csv"],
            // $1 is a placeholder on both engines (SQLite reads it as a named parameter).
            ["query", "SELECT name, quantity FROM items WHERE status = $1 ORDER BY name", "--param", "in_stock", "--format", "json"],
            ["query", "SELECT count(*) AS n FROM items", "--format", "csv"],
            ["query", "SELECT name FROM items WHERE name = $1"],
            ["query", "SELECT name FROM items WHERE 1 = 0", "--format", "json"],
        ]
        for arguments in queries {
            let onFile = Outcome(try file.stockroom(arguments)), onServer = Outcome(try server.stockroom(arguments))
            #expect(onFile == onServer, "\(arguments)")
        }
        let table = try server.stockroom(["query", select])
        #expect(table.lines == [
            "name  color  status        quantity  is_on_back_order",
            "Bowl  NULL   in_stock      2         NULL",
            "Cup   NULL   out_of_stock  NULL      1",
            "Mug   blue   in_stock      5         NULL",
        ], "\(table)")
        let missing = try server.stockroom(["query", "SELECT name FROM items WHERE name = $1"])
        expectFailure(missing, code: .usage, message: "the query has 1 placeholder but 0 --param values were given")
    }

    @Test func serverTypesWriteAsSQLitesWould() throws {
        let server = try Target(server: true)
        let sql = """
            SELECT 42 AS integer, 1.5::float8 AS real, 12.30::numeric AS exact, NULL AS absent, true AS yes, \
            'two' || chr(10) || 'lines' AS text, '\\x00ff10'::bytea AS blob, 'Infinity'::float8 AS huge, 7::bigint AS integer
            """
        let json = try server.stockroom(["query", "--format", "json", sql])
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout == """
            [
            {"integer":42,"real":1.5,"exact":12.30,"absent":null,"yes":true,"text":"two\\nlines","blob":"AP8Q","huge":9e999,"integer_2":7}
            ]

            """, "\(json)")
        let csv = try server.stockroom(["query", "--format", "csv", sql])
        #expect(csv.stdout == "integer,real,exact,absent,yes,text,blob,huge,integer\r\n42,1.5,12.30,,true,\"two\nlines\",AP8Q,Inf,7\r\n", "\(csv)")
        let table = try server.stockroom(["query", sql])
        #expect(table.lines == [
            "integer  real  exact  absent  yes   text        blob       huge  integer",
            "42       1.5   12.30  NULL    true  two\\nlines  x'00ff10'  Inf   7",
        ], "\(table)")
    }

    @Test(arguments: [
        "INSERT INTO items (id, name, status, quantity, created_at, updated_at) VALUES ('x', 'x', 'in_stock', 1, 'x', 'x')",
        "DELETE FROM items",
        "UPDATE items SET name = 'Pot'",
        "CREATE TABLE scratch (a integer)",
        "SELECT nextval('counter')",
        "SELECT name FROM items FOR UPDATE",
        "WITH gone AS (DELETE FROM items RETURNING id) SELECT count(*) FROM gone",
        "VACUUM",
    ])
    func aWriteThroughQueryIsRefusedAndChangesNothing(_ sql: String) throws {
        let (_, server) = try Self.fileAndServer()
        let schema = try #require(server.schema)
        #expect(try schema.psql("CREATE SEQUENCE counter").status == 0)
        let before = try schema.psql("SELECT string_agg(id || name || version, ',' ORDER BY id) FROM items; SELECT last_value FROM counter").output
        let result = try server.stockroom(["query", sql])
        expectFailure(result, code: .usage, mentioning: "stockroom query only reads")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(try schema.psql("SELECT string_agg(id || name || version, ',' ORDER BY id) FROM items; SELECT last_value FROM counter").output == before)
        #expect(try schema.psql("SELECT to_regclass('scratch') IS NULL").output == "t")
    }

    @Test func sqlTheServerRefusesExitsAsOnAFile() throws {
        let (file, server) = try Self.fileAndServer()
        for sql in ["SELECT * FROM nowhere", "SELECT nope FROM items", "SELECT 1; SELECT 2", "SELEKT 1"] {
            let onFile = try file.stockroom(["query", sql]), onServer = try server.stockroom(["query", sql])
            expectFailure(onFile, code: .usage)
            expectFailure(onServer, code: .usage, mentioning: "cannot run the query: ")
            #expect(onServer.stdout.isEmpty)
        }
        let failing = try server.stockroom(["query", "SELECT 1 / (count(*) - 3) FROM items"])
        expectFailure(failing, code: .dataError, message: "the query failed while running: division by zero")
    }

    @Test func timeoutIsTheServersStatementTimeout() throws {
        let server = try Target(server: true)
        let result = try server.stockroom(["query", "SELECT pg_sleep(60)", "--timeout", "0.2"])
        expectFailure(result, code: .busy,
                      message: "the query ran past the time limit of 0.2 seconds and was stopped; narrow it or raise --timeout")
        let within = try server.stockroom(["query", "SELECT current_setting('statement_timeout') AS limit, current_setting('transaction_read_only') AS ro",
                                           "--timeout", "7", "--format", "csv"])
        #expect(within.stdout == "limit,ro\r\n7s,on\r\n", "\(within)")
    }

    @Test func aValueLongerThanTheLimitStopsTheQuery() throws {
        let server = try Target(server: true)
        let message = "the query built or read a value longer than 1000 bytes and was stopped; narrow it or raise --max-value-length"
        expectFailure(try server.stockroom(["query", "SELECT repeat('a', 1001)", "--max-value-length", "1000"]), code: .dataError, message: message)
        expectFailure(try server.stockroom(["query", "SELECT decode(repeat('ab', 1001), 'hex')", "--max-value-length", "1000"]),
                      code: .dataError, message: message)
        // bytea is measured by its bytes, not by its hex text (2002 characters here).
        let bytes = try server.stockroom(["query", "SELECT length(decode(repeat('ab', 1000), 'hex')) AS n, decode(repeat('ab', 1000), 'hex') AS b",
                                          "--max-value-length", "1000", "--format", "csv"])
        #expect(bytes.status == 0, "\(bytes)")
        #expect(bytes.lines.dropFirst().first?.hasPrefix("1000,q6ur") == true, "\(bytes)")
    }

    @Test func aPasswordInTheURIIsNeverPrinted() throws {
        let server = try Target(server: true)
        _ = try server.stockroom(Self.addItems[0])
        let uri = server.db.replacingOccurrences(of: "?", with: "?password=s3cret&")
        for arguments in [["query", "SELECT * FROM nowhere"], ["query", "SELECT 1 AS one", "--format", "json"],
                          ["check"], ["check", "--format", "json"], ["backup", "/nonexistent/x.sqlite"], ["restore", "/nonexistent/x.sqlite"]] {
            let result = try Processes.stockroom(arguments, environment: ["STOCKROOM_DB": uri])
            #expect(!result.stdout.contains("s3cret") && !result.stderr.contains("s3cret"), "\(arguments): \(result)")
        }
        let check = try Processes.stockroom(["check"], environment: ["STOCKROOM_DB": uri])
        #expect(check.stdout.contains("password=***"), "\(check)")
    }

    // MARK: check

    @Test func checkReportsTheSameOnAFileAndOnAServer() throws {
        let (file, server) = try Self.fileAndServer()
        for target in [file, server] {
            let id = try #require(PostgresCLITests.printedID(target.stockroom(["items", "add", "--name", "Pan", "--quantity", "1"]).output))
            #expect(try target.stockroom(["items", "update", id, "--quantity", "4"]).status == 0)
            #expect(try target.stockroom(["items", "delete", id]).status == 0)
            #expect(try target.stockroom(["draft", "add", "--name", "Jug"]).status == 0)
        }
        let onFile = try file.stockroom(["check"]), onServer = try server.stockroom(["check"])
        #expect(onServer.status == 0, "\(onServer)")
        #expect(onServer.output == "ok: \(server.db): schema version \(MigrationSet.embedded(.postgres).latestVersion), 3 items and 1 draft", "\(onServer)")
        #expect(onFile.output.replacingOccurrences(of: file.db, with: server.db) == onServer.output)
        let jsonOnFile = try file.stockroom(["check", "--format", "json"]), jsonOnServer = try server.stockroom(["check", "--format", "json"])
        #expect(jsonOnServer.status == 0, "\(jsonOnServer)")
        #expect(jsonOnFile.output.replacingOccurrences(of: file.db, with: server.db) == jsonOnServer.output.replacingOccurrences(of: "\\/", with: "/"))
    }

    @Test func checkFindsABrokenHistoryAndTheRulesThatLetItBreak() throws {
        let server = try Target(server: true)
        let schema = try #require(server.schema)
        let id = try #require(PostgresCLITests.printedID(server.stockroom(Self.addItems[0]).output))
        #expect(try server.stockroom(["items", "update", id, "--quantity", "6"]).status == 0)
        #expect(try schema.psql("""
            ALTER TABLE item_events DISABLE TRIGGER item_events_are_never_deleted;
            DELETE FROM item_events WHERE version = 1;
            ALTER TABLE items ADD CONSTRAINT few CHECK (quantity < 3) NOT VALID;
            """).status == 0)
        let result = try server.stockroom(["check"])
        expectFailure(result, code: .dataError, message: "\(server.db) failed its check: 4 problems")
        #expect(result.lines == [
            "constraint: constraint few on items was added NOT VALID and never validated: rows before it were not checked",
            "constraint: trigger item_events_are_never_deleted on item_events is disabled: the rule it enforces is not kept",
            "history: item \(id): version 2 follows version 0; versions go 1, 2, 3… without gaps",
            // The deleted event's position is missing too (migration 0004).
            "history: event positions are not 1 to 1 without gaps (1 distinct, the highest 2)",
        ], "\(result)")
    }

    @Test func checkOfAnEmptyServerDatabaseSaysItIsNoStockroomDatabase() throws {
        let server = try Target(server: true)
        let result = try server.stockroom(["check"])
        expectFailure(result, code: .dataError, message: "\(server.db) failed its check: 1 problem")
        #expect(result.lines == ["migrations: no schema_migrations table: this is not a Stockroom database"], "\(result)")
    }

    @Test func checkReportsATableItCannotRead() throws {
        let server = try Target(server: true)
        _ = try server.stockroom(Self.addItems[0])
        #expect(try server.schema!.psql("ALTER TABLE drafts RENAME COLUMN name TO title").status == 0)
        let result = try server.stockroom(["check", "--format", "json"])
        expectFailure(result, code: .dataError)
        #expect(result.stdout.contains(#"{"kind":"rows","message":"table drafts cannot be read by this stockroom: column \"name\" does not exist"}"#), "\(result)")
    }

    // MARK: backup and restore

    @Test(arguments: [["backup", "DEST"], ["restore", "DEST"], ["backup", "DEST", "--force"]])
    func backupAndRestoreRefuseAServerPointingToTheRecipe(_ arguments: [String]) throws {
        let directory = TemporaryDirectory()
        let destination = directory.path("copy.sqlite")
        // No server at this address: the refusal comes before any connection.
        let uri = "postgresql://stockroom:s3cret@/inventory?host=/nonexistent"
        let result = try Processes.stockroom(arguments.map { $0 == "DEST" ? destination : $0 } + ["--db", uri])
        expectFailure(result, code: .usage, message: """
            stockroom \(arguments[0]) works on SQLite files; for the PostgreSQL database postgresql://stockroom:***@/inventory?host=/nonexistent \
            use pg_dump/pg_restore or pg_basebackup (docs/postgresql.md, "Backups on PostgreSQL")
            """)
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: destination))
        let page = try String(contentsOf: Processes.packageRoot.appending(path: "docs/postgresql.md"), encoding: .utf8)
        #expect(page.contains("\n## Backups on PostgreSQL\n"))
    }
}
