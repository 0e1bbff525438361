import Foundation

/// Migration files for tests: small sets that exercise the runner (a table rebuild, a failing
/// statement, a foreign-key violation, a no-transaction file), shared by the library tests and
/// the end-to-end tests that pass them to the binary with `--migrations-dir`.
///
/// Each fixture is a file name and its SQL. The product's own `Migrations/` are never changed.
public enum MigrationFixtures {
    /// Shelves and the boxes on them; boxes cascade when their shelf is deleted, which is what
    /// makes a rebuild with foreign keys enforced destroy data.
    public static let shelvesAndBoxes = (fileName: "0001_create_shelves_and_boxes.sql", sql: """
        CREATE TABLE shelves (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
        CREATE TABLE boxes (
            id INTEGER PRIMARY KEY,
            shelf_id INTEGER NOT NULL REFERENCES shelves (id) ON DELETE CASCADE,
            label TEXT NOT NULL
        );
        CREATE INDEX boxes_by_shelf ON boxes (shelf_id);
        INSERT INTO shelves (id, label) VALUES (1, 'A'), (2, 'B');
        INSERT INTO boxes (id, shelf_id, label) VALUES (1, 1, 'cables'), (2, 2, 'tools'), (3, 2, 'spares');
        """)

    /// sqlite.org's 12-step rebuild of the parent table: adds a CHECK and a column. With foreign
    /// keys enforced, `DROP TABLE shelves` would delete every box through the cascade.
    public static let rebuildShelves = (fileName: "0002_rebuild_shelves.sql", sql: """
        CREATE TABLE new_shelves (
            id INTEGER PRIMARY KEY,
            label TEXT NOT NULL CHECK (length(label) > 0),
            aisle INTEGER NOT NULL DEFAULT 1
        );
        INSERT INTO new_shelves (id, label) SELECT id, label FROM shelves;
        DROP TABLE shelves;
        ALTER TABLE new_shelves RENAME TO shelves;
        """)

    /// A rebuild of `boxes` that also deletes shelf 2 without touching its boxes: two orphans.
    public static let rebuildLeavingOrphans = (fileName: "0002_rebuild_boxes.sql", sql: """
        CREATE TABLE new_boxes (
            id INTEGER PRIMARY KEY,
            shelf_id INTEGER NOT NULL REFERENCES shelves (id) ON DELETE CASCADE,
            label TEXT NOT NULL CHECK (length(label) > 0)
        );
        INSERT INTO new_boxes (id, shelf_id, label) SELECT id, shelf_id, label FROM boxes;
        DROP TABLE boxes;
        ALTER TABLE new_boxes RENAME TO boxes;
        CREATE INDEX boxes_by_shelf ON boxes (shelf_id);
        DELETE FROM shelves WHERE id = 2;
        """)

    /// The statement that fails in ``failingMidFile``.
    public static let failingStatement = "UPDATE labels SET colour = 'red'"

    /// Creates a table and a row, then fails on a column that does not exist; the last
    /// statement never runs.
    public static let failingMidFile = (fileName: "0002_add_labels.sql", sql: """
        CREATE TABLE labels (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
        INSERT INTO labels (text) VALUES ('fragile');
        \(failingStatement);
        CREATE TABLE never_created (id INTEGER);
        """)

    /// A migration that must run outside a transaction.
    public static let vacuum = (fileName: "0003_vacuum.sql", sql: """
        -- stockroom:no-transaction
        VACUUM;
        """)

    /// A migration slow enough (a few hundred thousand rows) that a second process started at
    /// the same moment reaches the write lock while the first still holds it.
    public static let slowFill = (fileName: "0001_fill_numbers.sql", sql: """
        CREATE TABLE numbers (n INTEGER PRIMARY KEY, square INTEGER NOT NULL);
        INSERT INTO numbers (n, square)
            WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 300000)
            SELECT n, n * n FROM counter;
        """)

    /// An index on the slow fixture's table.
    public static let indexSquares = (fileName: "0002_index_squares.sql", sql: """
        CREATE INDEX numbers_by_square ON numbers (square);
        """)

    /// A third, trivial migration, for sets that need a later version.
    public static let notes = (fileName: "0003_create_notes.sql", sql: """
        CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
        """)

    /// Writes `files` into a fresh folder inside `directory` and returns the folder's path.
    @discardableResult
    public static func write(_ files: [(fileName: String, sql: String)], into directory: TemporaryDirectory,
                             folder: String = "migrations") throws -> String {
        let url = directory.url.appending(path: folder, directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for file in files {
            try Data(file.sql.utf8).write(to: url.appending(path: file.fileName))
        }
        return url.path
    }
}
