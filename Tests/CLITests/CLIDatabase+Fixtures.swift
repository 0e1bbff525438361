import Foundation
import StockroomTestSupport
import Testing

/// Ways to fill a `CLIDatabase` and to look at files the way a user would: the real
/// `stockroom` binary and the `sqlite3` shell.
extension CLIDatabase {
    /// Adds a few items and a draft through the binary, so the file is made as users make it.
    func addSampleContent() throws {
        for name in ["Keyboard", "Charger", "Phone"] {
            let added = try stockroom("items", "add", "--name", name, "--quantity", "2")
            try #require(added.status == 0, "\(added)")
        }
        try #require(try stockroom("draft", "add", "--name", "Half-typed").status == 0)
    }

    /// Adds `count` valid items in one statement: enough pages that a backup takes a while and
    /// a corrupted page lands inside a table.
    func addBulkItems(_ count: Int, to database: String? = nil) throws {
        let result = try Processes.sqlite3(database ?? path, """
            BEGIN;
            CREATE TEMP TABLE bulk AS
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(2)) || '-'
                         || hex(randomblob(2)) || '-' || hex(randomblob(6))) AS id, i
            FROM n;
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            SELECT id, 'Bulk ' || i, 'blue', 'in_stock', i, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
            FROM bulk;
            -- The database records each item's first version itself (migration 0004's triggers).
            DROP TABLE bulk;
            COMMIT;
            """)
        try #require(result.status == 0, "\(result)")
    }

    /// Every row Stockroom owns, as text: equal for two files exactly when they hold the same data.
    func contents(of database: String) throws -> String {
        let result = try Processes.sqlite3(database, """
            SELECT 'migration', version, name, checksum FROM schema_migrations ORDER BY version;
            SELECT 'item', * FROM items ORDER BY id;
            SELECT 'draft', * FROM drafts ORDER BY id;
            """, options: ["-readonly"])
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    /// How many items a file holds.
    func itemCount(of database: String) throws -> Int {
        let result = try Processes.sqlite3(database, "SELECT count(*) FROM items;", options: ["-readonly"])
        return try #require(Int(result.output), "\(result)")
    }

    /// The highest migration recorded in a file.
    func schemaVersion(of database: String) throws -> Int {
        let result = try Processes.sqlite3(database, "SELECT max(version) FROM schema_migrations;", options: ["-readonly"])
        return try #require(Int(result.output), "\(result)")
    }

    /// The names in the folder, hidden ones included, sorted.
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    /// Records `migration 99` as applied: what a newer Stockroom would leave.
    func markAsNewerSchema(_ database: String) throws {
        let result = try Processes.sqlite3(database,
            "INSERT INTO schema_migrations VALUES (99, 'from_a_newer_stockroom', 'x', '2030-01-01T00:00:00Z');")
        try #require(result.status == 0, "\(result)")
    }

    /// Overwrites three pages in the middle of the file with a fixed pattern.
    func corrupt(_ path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 4096 * 5)
        handle.write(Data(repeating: 0x5A, count: 4096 * 3))
    }

    /// Cuts the file to half its size, as an interrupted copy would.
    func truncate(_ path: String) throws {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size / 2))
    }

    /// Makes a backup of the database through the binary and returns its path.
    func backup(named name: String = "backup.sqlite") throws -> String {
        let destination = directory.path(name)
        let result = try stockroom("backup", destination)
        try #require(result.status == 0, "\(result)")
        return destination
    }
}
