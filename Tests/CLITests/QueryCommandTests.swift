import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `stockroom query`: output formats, parameters, and everything it refuses, through the binary.
@Suite struct QueryCommandTests {
    let database = CLIDatabase()

    init() throws {
        for item in [
            ["--name", "Keyboard", "--color", "blue", "--quantity", "100"],
            ["--name", "Phone", "--color", "green", "--out-of-stock", "--back-order"],
            ["--name", "Headphones", "--out-of-stock"],
        ] {
            let added = try database.stockroom(arguments: ["items", "add"] + item)
            #expect(added.status == 0, "\(added)")
        }
    }

    @Test func theTableShowsTheTaggedColumnsAligned() throws {
        let result = try database.stockroom("query", "SELECT name, color, status, quantity, is_on_back_order FROM items ORDER BY name")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "name        color  status        quantity  is_on_back_order",
            "Headphones  NULL   out_of_stock  NULL      0",
            "Keyboard    blue   in_stock      100       NULL",
            "Phone       green  out_of_stock  NULL      1",
        ])
    }

    @Test func jsonKeepsSQLiteTypes() throws {
        let result = try database.stockroom("query", "--format", "json",
            "SELECT 42 AS integer, 1.5 AS real, NULL AS absent, 'say \"hi\"' AS text, x'00ff10' AS blob, 7 AS integer")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            [
            {"integer":42,"real":1.5,"absent":null,"text":"say \\"hi\\"","blob":"AP8Q","integer_2":7}
            ]

            """)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["integer"] as? Int == 42)
        #expect(rows.first?["real"] as? Double == 1.5)
        #expect(rows.first?["absent"] is NSNull)
    }

    @Test func jsonOfNoRowsIsAnEmptyArray() throws {
        let result = try database.stockroom("query", "--format", "json", "SELECT name FROM items WHERE 0")
        #expect(result.stdout == "[]\n")
    }

    @Test func csvFollowsRFC4180WithAHeaderRow() throws {
        let result = try database.stockroom("query", "--format", "csv",
            "SELECT 'a,b' AS comma, 'say \"hi\"' AS quote, 'two' || char(10) || 'lines' AS lines, NULL AS absent, 3 AS n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "comma,quote,lines,absent,n\r\n\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,3\r\n")
    }

    @Test func parametersAreBoundInOrderNeverSpliced() throws {
        let sql = "SELECT name FROM items WHERE status = ? AND name LIKE ? ORDER BY name"
        #expect(try database.stockroom("query", sql, "--param", "out_of_stock", "--param", "%phone%").lines == ["name", "Headphones", "Phone"])
        let injection = try database.stockroom("query", "--format", "json", sql, "--param", "in_stock", "--param", "x' OR '1'='1")
        #expect(injection.stdout == "[]\n")
        let negative = try database.stockroom("query", "SELECT ? + 1 AS n", "--param", "-3")
        #expect(negative.lines == ["n", "-2"], "\(negative)")
    }

    @Test func theWrongNumberOfParametersIsAUsageError() throws {
        let result = try database.stockroom("query", "SELECT ?, ?", "--param", "one")
        expectFailure(result, code: .usage, message: "the query has 2 placeholders but 1 --param value was given")
    }

    @Test(arguments: [
        "DELETE FROM items",
        "UPDATE items SET name = 'Renamed'",
        "INSERT INTO items (id) VALUES ('x')",
        "DROP TABLE items",
        "CREATE TABLE extra (x)",
        "CREATE TEMP TABLE scratch (x)",
        "PRAGMA user_version = 9",
        "WITH doomed AS (SELECT id FROM items) DELETE FROM items WHERE id IN doomed",
    ])
    func aWriteIsRefusedAndTheDatabaseIsUntouched(sql: String) throws {
        let before = try database.contents()
        let result = try database.stockroom("query", sql)
        expectFailure(result, code: .usage)
        #expect(result.errorMessage.hasPrefix("the statement would change the database, and only read-only statements are allowed"))
        #expect(result.stdout.isEmpty)
        #expect(try database.contents() == before)
        #expect(try database.sqlite3("SELECT count(*) || ' ' || (SELECT user_version FROM pragma_user_version) FROM items") == "3 0")
    }

    @Test func vacuumIntoIsRefusedAndWritesNoFile() throws {
        let target = database.directory.path("copy.sqlite")
        let result = try database.stockroom("query", "VACUUM INTO '\(target)'")
        expectFailure(result, code: .usage)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test(arguments: [
        ("ATTACH '/tmp/stockroom-attached.sqlite' AS other", "not authorized (stockroom query does not allow ATTACH or DETACH)"),
        ("SELECT load_extension('/nonexistent/extension')", "not authorized to use function: load_extension"),
        ("SELECT fts3_tokenizer('simple', ?)", "not authorized to use function: fts3_tokenizer"),
    ])
    func featuresTheHardeningBlocksAreRefused(sql: String, reason: String) throws {
        // An 8-byte parameter is what fts3_tokenizer would take as a raw pointer.
        let result = try database.stockroom(arguments: ["query", sql] + (sql.contains("?") ? ["--param", "AAAAAAAA"] : []))
        expectFailure(result, code: .usage, message: "cannot run the query: \(reason)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/stockroom-attached.sqlite"))
    }

    @Test func sqlThatDoesNotCompileIsAUsageError() throws {
        let syntax = try database.stockroom("query", "SELEC name FROM items")
        expectFailure(syntax, code: .usage, message: "cannot run the query: near \"SELEC\": syntax error")
        let missing = try database.stockroom("query", "SELECT * FROM itemz")
        expectFailure(missing, code: .usage, message: "cannot run the query: no such table: itemz")
        let two = try database.stockroom("query", "SELECT 1; SELECT 2")
        expectFailure(two, code: .usage, message: "only one statement may be run at a time; found more after the first")
        let empty = try database.stockroom("query", " ; ")
        expectFailure(empty, code: .usage, message: "no SQL statement was given")
    }

    @Test func aStatementFailingWhileRunningIsADataError() throws {
        let result = try database.stockroom("query", "SELECT json('{not json')")
        expectFailure(result, code: .dataError, message: "the query failed while running: malformed JSON")
    }

    @Test func aRunawayQueryIsStoppedAtItsTimeLimit() throws {
        let result = try database.stockroom("query", "--timeout", "0.2",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
        expectFailure(result, code: .busy, message: "the query ran past the time limit of 0.2 seconds and was stopped; narrow it or raise --timeout")
    }

    @Test func aBadTimeoutIsAUsageError() throws {
        let result = try database.stockroom("query", "--timeout", "-1", "SELECT 1")
        expectFailure(result, code: .usage)
    }

    @Test func aMissingDatabaseIsNotFoundAndNotCreated() throws {
        let path = database.directory.path("absent.sqlite")
        let result = try Processes.stockroom(["query", "--db", path, "SELECT 1"])
        expectFailure(result, code: .notFound, message: "no database at \(path)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileThatIsNotADatabaseIsAnIOError() throws {
        let path = database.directory.path("notes.txt")
        try Data("just some text, long enough to not look like an empty database file\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try Processes.stockroom(["query", "--db", path, "SELECT 1"])
        expectFailure(result, code: .ioError)
    }
}
