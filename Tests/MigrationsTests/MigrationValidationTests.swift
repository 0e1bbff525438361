import SQLiteCore
import StockroomMigrations
import StockroomTestSupport
import Testing

/// `validationErrors` lists everything wrong at once; `validate` still throws the first.
@Suite struct MigrationValidationTests {
    let directory = TemporaryDirectory()

    @Test func everyEditedUnknownAndSkippedMigrationIsListed() throws {
        let migrations = try MigrationSet([
            try Migration(fileName: "0001_a.sql", sql: "CREATE TABLE a (x);"),
            try Migration(fileName: "0002_b.sql", sql: "CREATE TABLE b (x);"),
            try Migration(fileName: "0003_c.sql", sql: "CREATE TABLE c (x);"),
        ])
        let database = try Database(path: directory.path("db.sqlite"))
        let runner = MigrationRunner(database: database, migrations: migrations)
        try runner.migrate()
        try database.execute("""
            UPDATE schema_migrations SET checksum = 'edited' WHERE version IN (1, 3);
            DELETE FROM schema_migrations WHERE version = 2;
            INSERT INTO schema_migrations VALUES (7, 'future', 'x', '2030-01-01T00:00:00Z');
            """)

        let errors = runner.validationErrors(try runner.appliedMigrations())
        try #require(errors.count == 4, "\(errors)")
        guard case .unknownAppliedVersions([7]) = errors[0],
              case .checksumMismatch(version: 1, _, _, _) = errors[1],
              case .checksumMismatch(version: 3, _, _, _) = errors[2],
              case .gap(missing: [2]) = errors[3] else {
            Issue.record("unexpected errors: \(errors)")
            return
        }
        #expect(throws: MigrationError.self) { try runner.validate(try runner.appliedMigrations()) }
    }
}
