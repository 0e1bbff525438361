import Foundation
import Inventory
import StockroomMigrations
import StockroomTestSupport
import Testing

/// A command that reads never migrates, so a file of any older schema version is read as it
/// is, through views that stand in for the columns it lacks (`Database.readOlderColumns`),
/// chosen by each field's `ItemField.addedIn`. A wrong `addedIn` goes unnoticed by every
/// test on a current file, so this one takes the version that really adds a field's columns
/// from the files themselves (`PRAGMA table_info` at each version), holds the declaration to
/// it, and reads a file of every older version with `items list` and `export`: every field
/// that file's version does not have yet must read as none.
@Suite struct OlderSchemaFieldTests {
    static let versions = MigrationSet.embedded(.sqlite).migrations.map(\.version)
    static let time = "'2026-11-25T00:00:00.000Z'"

    /// The columns of `table` in the file, empty when it has no such table.
    static func columns(of table: String, in database: CLIDatabase) throws -> Set<String> {
        Set(try database.sqlite3("SELECT name FROM pragma_table_info('\(table)');").split(separator: "\n").map(String.init))
    }

    /// A file migrated up to `version` (nothing past it), with one item written by hand in the
    /// columns of the first schema.
    static func file(at version: Int) throws -> CLIDatabase {
        let database = CLIDatabase()
        let migrated = try database.stockroom("migrate", "up", "--to", String(version))
        #expect(migrated.status == 0, "\(migrated)")
        _ = try database.sqlite3("""
            INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
            VALUES ('01937f4e-1111-7000-8000-000000000001', 'Lamp', 'blue', 'in_stock', 2, NULL, \(time), \(time));
            """)
        return database
    }

    @Test func eachFieldsAddedInIsTheMigrationThatAddsItsColumns() throws {
        // Each table's columns at each version, and the version that created it.
        let tables = ["items", "drafts", "item_events"]
        var columns: [Int: [String: Set<String>]] = [:]
        for version in Self.versions {
            let database = try Self.file(at: version)
            for table in tables { columns[version, default: [:]][table] = try Self.columns(of: table, in: database) }
        }
        func firstVersion(where holds: (Int) -> Bool) -> Int? { Self.versions.first(where: holds) }
        for field in ItemField.allCases {
            let added = try #require(firstVersion { columns[$0]?["items"]?.contains(field.column) == true },
                                     "no migration adds \(field.column) to items")
            #expect(field.addedIn == added,
                    "ItemField.\(field).addedIn is \(field.addedIn), but migration \(added) adds its column items.\(field.column)")
            // The views stand in for a field on every table at once: its columns come with one
            // migration, or with the table when that is later.
            for (table, column) in [("drafts", field.column), ("item_events", field.toColumn)] {
                let created = try #require(firstVersion { columns[$0]?[table]?.isEmpty == false })
                #expect(firstVersion { columns[$0]?[table]?.contains(column) == true } == max(added, created),
                        "\(table).\(column) is not added with items.\(field.column) (migration \(added))")
            }
        }
    }

    @Test(arguments: versions.dropLast())
    func aFileOfAnOlderVersionIsReadWithItsLaterFieldsAsNone(version: Int) throws {
        let database = try Self.file(at: version)
        let columns = try Self.columns(of: "items", in: database)
        let later = ItemField.allCases.filter { !columns.contains($0.column) }
        let before = try database.contents()

        let text = try database.stockroom("items", "list")
        #expect(text.status == 0 && text.stderr.isEmpty, "v\(version): \(text)")
        #expect(text.lines.count == 2 && text.lines.last?.contains("Lamp") == true, "v\(version): \(text)")

        let listed = try database.stockroom("items", "list", "--format", "json")
        #expect(listed.status == 0, "v\(version): \(listed)")
        // Read with try?: a failed command's empty output must not stop the checks below.
        let items = (try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [[String: Any]] ?? []
        #expect(items.count == 1 && items.first?["name"] as? String == "Lamp", "v\(version): \(listed)")
        for field in later {
            #expect(items.first?[field.key] is NSNull, "v\(version): \(field.key) in \(listed.stdout)")
        }

        let jsonl = try database.stockroom("export", "--format", "jsonl")
        #expect(jsonl.status == 0, "v\(version): \(jsonl)")
        let exported = (try? JSONSerialization.jsonObject(with: Data(jsonl.stdout.utf8))) as? [String: Any] ?? [:]
        #expect(exported["name"] as? String == "Lamp", "v\(version): \(jsonl)")
        for field in later {
            #expect(exported[field.key] is NSNull, "v\(version): \(field.key) in \(jsonl.stdout)")
        }

        let csv = try database.stockroom("export", "--format", "csv")
        #expect(csv.status == 0, "v\(version): \(csv)")
        // CSV ends its records with CRLF, which Swift reads as one Character.
        let records = csv.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(records.count == 2, "v\(version): \(csv)")
        if records.count == 2 {
            let row = Dictionary(zip(records[0], records[1]), uniquingKeysWith: { first, _ in first })
            #expect(row["name"] == "Lamp", "v\(version): \(csv)")
            for field in later {
                #expect(row[field.key] == "", "v\(version): \(field.key) in \(csv.stdout)")
            }
        }

        #expect(try database.contents() == before, "reading a v\(version) file changed it")
        #expect(try database.sqlite3("SELECT max(version) FROM schema_migrations;") == String(version))
    }
}
