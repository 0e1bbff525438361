import Foundation
import StockroomMigrations
import StockroomTestSupport
import Testing

/// The binary carries its migrations; `Migrations/` stays the single source of truth.
@Suite struct EmbeddedMigrationsTests {
    /// Each engine's embedded set and its folder of `Migrations/`.
    static let engines: [(folder: String, embedded: MigrationSet)] = [("sqlite", .embedded(.sqlite)), ("postgres", .embedded(.postgres))]

    @Test(arguments: engines.indices)
    func theEmbeddedSetEqualsTheMigrationsFolder(_ engine: Int) throws {
        let (name, embedded) = Self.engines[engine]
        let folder = try MigrationSet(directory: Processes.packageRoot.appending(path: "Migrations/\(name)"))
        #expect(!embedded.migrations.isEmpty)
        #expect(embedded.migrations.map(\.fileName) == folder.migrations.map(\.fileName))
        #expect(embedded.migrations.map(\.sql) == folder.migrations.map(\.sql))
        // The embedded checksums and flags were computed at build time by EmbedMigrationsTool;
        // the folder's are computed now by the runner: a mismatch between the two fails here.
        #expect(embedded.migrations.map(\.checksum) == folder.migrations.map(\.checksum))
        #expect(embedded.migrations.map(\.runsInTransaction) == folder.migrations.map(\.runsInTransaction))
        for migration in embedded.migrations {
            #expect(migration.checksum == Migration.checksum(of: migration.sql), "\(migration.fileName)")
        }
    }

    @Test(arguments: engines.indices)
    func versionsStartAtOneWithoutGaps(_ engine: Int) {
        let versions = Self.engines[engine].embedded.migrations.map(\.version)
        #expect(versions == Array(1...versions.count))
    }

    @Test func bothEnginesHaveTheSameVersionsAndNames() {
        #expect(MigrationSet.embedded(.sqlite).migrations.map(\.fileName) == MigrationSet.embedded(.postgres).migrations.map(\.fileName))
    }

    /// Moving the files into Migrations/sqlite/ kept their text: databases that recorded these
    /// checksums before the move still open.
    @Test func theSQLiteChecksumsAreTheOnesDatabasesRecorded() {
        #expect(MigrationSet.embedded(.sqlite).migrations.prefix(3).map(\.checksum) == [
            "8041e16b3d36af45aa01339feed89b88d20556d0ee1e37e22a206acd496535d9",
            "a68e38eaa722f5deea89fa0a037a5606eda510daedf29cbda273edd56e233403",
            "c710c9629a385d0ecb4352ce95aef96a24282f4570a8e6366605b6b09b3c5c28",
        ])
    }

    @Test func checksumsIgnoreLineEndings() throws {
        let lf = try Migration(fileName: "0001_a.sql", sql: "CREATE TABLE a (x);\nCREATE TABLE b (y);\n")
        let crlf = try Migration(fileName: "0001_a.sql", sql: "CREATE TABLE a (x);\r\nCREATE TABLE b (y);\r\n")
        let edited = try Migration(fileName: "0001_a.sql", sql: "CREATE TABLE a (x);\nCREATE TABLE c (y);\n")
        #expect(lf.checksum == crlf.checksum)
        #expect(lf.checksum != edited.checksum)
    }

    @Test func checksumIsSHA256() {
        // FIPS 180-4 test vectors.
        #expect(Migration.checksum(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Migration.checksum(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Migration.checksum(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Migration.checksum(of: String(repeating: "a", count: 1000))
            == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test(arguments: ["create_items.sql", "0001.sql", "0000_zero.sql", "x001_name.sql", "0001_.sql", "0001_name.txt"])
    func badFileNamesAreRefused(_ name: String) {
        #expect(throws: MigrationError.self) { try Migration(fileName: name, sql: "SELECT 1;") }
    }

    @Test func theNoTransactionDirectiveIsRead() throws {
        #expect(try Migration(fileName: "0003_vacuum.sql", sql: "-- stockroom:no-transaction\nVACUUM;\n").runsInTransaction == false)
        #expect(try Migration(fileName: "0003_plain.sql", sql: "CREATE TABLE t (x);\n").runsInTransaction)
    }
}
