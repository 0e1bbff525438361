import Foundation
@testable import PostgresCore
import StockroomTestSupport
import Testing

/// Errors carry SQLSTATE, constraint name and SQL, classify themselves, and never show secrets.
@Suite struct ErrorTests {
    let schema: TestSchema
    init() throws { schema = try TestSchema() }

    /// The tagged columns of `items`, as the SQLite migration has them, in PostgreSQL's dialect.
    static let taggedItems = """
        CREATE TABLE items (
            id text NOT NULL PRIMARY KEY,
            name text NOT NULL CHECK (length(btrim(name, E' \\t\\n\\r\\f\\v')) > 0),
            status text NOT NULL CHECK (status IN ('in_stock', 'out_of_stock')),
            quantity integer NULL,
            is_on_back_order boolean NULL,
            CONSTRAINT status_columns_match_status CHECK (
                (status = 'in_stock' AND quantity IS NOT NULL AND quantity >= 1 AND is_on_back_order IS NULL)
                OR
                (status = 'out_of_stock' AND quantity IS NULL AND is_on_back_order IS NOT NULL)
            )
        );
        """

    @Test func anInvalidStatusWrittenByHandInPsqlIsRefused() throws {
        #expect(try schema.psql(Self.taggedItems).status == 0)
        let valid = try schema.psql("INSERT INTO items VALUES ('a', 'Keyboard', 'in_stock', 3, NULL);")
        #expect(valid.status == 0, "\(valid)")
        let tagMismatch = try schema.psql("INSERT INTO items VALUES ('b', 'Phone', 'in_stock', NULL, true);")
        #expect(tagMismatch.status != 0)
        #expect(tagMismatch.stderr.contains("violates check constraint \"status_columns_match_status\""), "\(tagMismatch)")
        let unknownTag = try schema.psql("UPDATE items SET status = 'lost';")
        #expect(unknownTag.status != 0)
        #expect(unknownTag.stderr.contains("items_status_check"), "\(unknownTag)")
        #expect(try schema.psql("SELECT id, status, quantity FROM items;").output
                == "a|in_stock|3")
    }

    @Test func aCheckViolationCarriesSQLStateConstraintAndSQLButNotTheValues() throws {
        let connection = try schema.connect()
        try connection.execute(Self.taggedItems)
        let sql = "INSERT INTO items (id, name, status, quantity, is_on_back_order) VALUES ($1, $2, $3, $4, $5)"
        let error = try #require(throws: PostgresError.self) {
            try connection.run(sql, "id-1", "Secret gadget 7731", "out_of_stock", 5, Bool?.none)
        }
        #expect(error.kind == .constraintViolation)
        #expect(error.sqlState == "23514")
        #expect(error.constraintName == "status_columns_match_status")
        #expect(error.tableName == "items")
        #expect(error.severity == "ERROR")
        #expect(error.sql == sql)
        #expect(error.detail?.contains("Failing row contains") == true, "the server's detail is kept for code")
        #expect(error.description.contains("23514"))
        #expect(error.description.contains("status_columns_match_status"))
        #expect(!error.description.contains("Secret gadget 7731"), "values never reach the printed error")
    }

    @Test func aUniqueViolationNamesItsIndex() throws {
        let connection = try schema.connect()
        try connection.execute(Self.taggedItems)
        let insert = "INSERT INTO items VALUES ($1, 'Mouse', 'in_stock', 1, NULL)"
        try connection.run(insert, "x")
        let error = try #require(throws: PostgresError.self) { try connection.run(insert, "x") }
        #expect(error.kind == .constraintViolation)
        #expect(error.sqlState == "23505")
        #expect(error.constraintName == "items_pkey")
    }

    @Test func aSyntaxErrorIsOtherWithItsSQL() throws {
        let connection = try schema.connect()
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELEC 1") }
        #expect(error.kind == .other)
        #expect(error.sqlState == "42601")
        #expect(error.description.contains("`SELEC 1`"))
    }

    @Test func aMalformedConnectionStringIsAClearErrorWithoutThePassword() throws {
        let unknownOption = try #require(throws: PostgresError.self) {
            try Connection("postgresql://ann:hunter2@localhost/db?colour=blue")
        }
        #expect(unknownOption.kind == .invalidConnectionString)
        #expect(unknownOption.message.contains("invalid URI query parameter: \"colour\""), "\(unknownOption.message)")
        #expect(!unknownOption.message.contains("hunter2"))
        #expect(unknownOption.message.contains("postgresql://ann:***@localhost/db?colour=blue"))

        let badEscape = try #require(throws: PostgresError.self) {
            try Connection("postgresql://ann:hun%zzter2@localhost/db")
        }
        #expect(badEscape.kind == .invalidConnectionString)
        #expect(!badEscape.message.contains("hun%zzter2"), "\(badEscape.message)")
        #expect(!badEscape.message.contains("zzter"), "\(badEscape.message)")

        let keywords = try #require(throws: PostgresError.self) { try Connection("host=localhost password='s3cret' nonsense") }
        #expect(keywords.kind == .invalidConnectionString)
        #expect(!keywords.message.contains("s3cret"), "\(keywords.message)")
    }

    @Test func noServerIsAConnectionFailureNamingWhereItLooked() throws {
        let empty = TemporaryDirectory()
        let uri = "postgresql://ann:hunter2@/db?host=\(empty.url.path)&port=5999"
        let error = try #require(throws: PostgresError.self) { try Connection(uri) }
        #expect(error.kind == .connectionFailed)
        #expect(error.message.contains(empty.url.path), "\(error.message)")
        #expect(error.message.contains(".s.PGSQL.5999"), "\(error.message)")
        #expect(!error.message.contains("hunter2"))
        #expect(!error.message.contains("\n"))
    }

    @Test func aReadWriteTargetWithOnlyAStandbyIsRefusedAsAConnectionFailure() throws {
        // The shared server is a primary: asking it for a standby must fail, through libpq alone.
        let uri = schema.uri + "&target_session_attrs=standby"
        let error = try #require(throws: PostgresError.self) { try Connection(uri) }
        #expect(error.kind == .connectionFailed)
        #expect(error.message.contains("not in hot standby"), "\(error.message)")
    }
}

/// Passwords are masked wherever a connection string could be printed.
@Suite struct RedactionTests {
    @Test(arguments: [
        ("postgresql://user:secret@h/db", "postgresql://user:***@h/db"),
        ("postgres://user:secret@h1:5432,h2:5433/db?target_session_attrs=read-write",
         "postgres://user:***@h1:5432,h2:5433/db?target_session_attrs=read-write"),
        ("POSTGRESQL://user:p%40ss@h/db", "POSTGRESQL://user:***@h/db"),
        ("postgresql://user@h/db?password=secret&sslmode=require", "postgresql://user@h/db?password=***&sslmode=require"),
        ("postgresql://h/db?sslmode=require&pass%77ord=secret", "postgresql://h/db?sslmode=require&pass%77ord=***"),
        ("postgresql://user:@h/db", "postgresql://user:***@h/db"),
        ("postgresql://user@h/db", "postgresql://user@h/db"),
        ("postgresql:///db?host=/tmp/sock", "postgresql:///db?host=/tmp/sock"),
        ("host=h dbname=db password=secret user=ann", "host=h dbname=db password=*** user=ann"),
        ("host=h password = 'se cr\\'et' user=ann", "host=h password = *** user=ann"),
        ("host=h PASSWORD=secret", "host=h PASSWORD=***"),
        ("/var/lib/stockroom/stockroom.sqlite", "/var/lib/stockroom/stockroom.sqlite"),
    ])
    func redacts(original: String, redacted: String) {
        #expect(ConnectionString.redacted(original) == redacted)
    }

    /// Found by the connection-string fuzz target, with libpq's own parser as the judge: libpq
    /// ends the user information at the first `@` before a `/` (a `?` or `#` before it belongs
    /// to the password) and knows no `#` fragment (a `#` is part of a query value), so each of
    /// these printed a password libpq would use.
    @Test(arguments: [
        ("postgresql://stockroom:s3cret#@/inventory?host=/nonexistent", "postgresql://stockroom:***@/inventory?host=/nonexistent", "s3cret#"),
        ("postgresql://ann:p?x@h/db", "postgresql://ann:***@h/db", "p?x"),
        ("postgresql://h/db?sslmode=require#&password=secret", "postgresql://h/db?sslmode=require#&password=***", "secret"),
        ("postgresql://ann:p@ss@h/db", "postgresql://ann:***@h/db", "p"),
    ])
    func redactsWhereLibpqReadsThePassword(original: String, redacted: String, password: String) {
        #expect(ConnectionString.redacted(original) == redacted)
        #expect(ConnectionString.passwords(in: original).contains(password))
    }

    @Test func recognisesPostgresURIsAndNothingElse() {
        #expect(ConnectionString.isPostgresURI("postgresql://h/db"))
        #expect(ConnectionString.isPostgresURI("postgres://h/db"))
        #expect(ConnectionString.isPostgresURI("PostgreSQL://h/db"))
        #expect(!ConnectionString.isPostgresURI("postgresql.sqlite"))
        #expect(!ConnectionString.isPostgresURI("./postgres://x"))
        #expect(!ConnectionString.isPostgresURI("host=h dbname=db"))
    }

    @Test func aConnectionExposesOnlyTheRedactedString() throws {
        let server = try PostgresServer.shared
        // Trust authentication ignores the password, so the connection succeeds with one.
        let connection = try Connection("postgresql://\(PostgresServer.superuser):hunter2@/postgres?host=\(server.socketDirectory)&port=\(server.port)")
        #expect(!connection.redactedConnectionString.contains("hunter2"))
        #expect(connection.redactedConnectionString.contains(":***@"))
    }
}
