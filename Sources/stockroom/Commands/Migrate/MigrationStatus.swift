import ArgumentParser
import Foundation
import SQLiteCore
import StockroomMigrations
import Inventory

/// `stockroom migrate status`: which migrations are applied, pending or unknown.
struct MigrationStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List every migration with its state, without changing the database."
    )

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let path = database.resolvedPath()
        // A file that does not exist yet is not created just to be inspected.
        let connection = FileManager.default.fileExists(atPath: path)
            ? try Database(path: path, mode: .readOnly, configuration: .init(busyTimeoutMilliseconds: database.busyTimeoutMilliseconds))
            : try Database(path: ":memory:")
        let runner = MigrationRunner(database: connection)
        let applied = try runner.appliedMigrations()
        let appliedByVersion = Dictionary(uniqueKeysWithValues: applied.map { ($0.version, $0) })
        var rows: [[String]] = runner.migrations.migrations.map { migration in
            guard let record = appliedByVersion[migration.version] else {
                return [String(migration.version), migration.name, "pending", "", ""]
            }
            return [String(migration.version), migration.name, "applied", record.appliedAt,
                    record.checksum == migration.checksum ? "ok" : "MODIFIED"]
        }
        for record in applied where runner.migrations.migration(version: record.version) == nil {
            rows.append([String(record.version), record.name, "unknown (newer than this stockroom)", record.appliedAt, ""])
        }
        rows.sort { Int($0[0])! < Int($1[0])! }
        for line in alignedRows(header: ["VERSION", "NAME", "STATE", "APPLIED AT", "CHECKSUM"], rows: rows) {
            Output.line(line)
        }
    }

    private func alignedRows(header: [String], rows: [[String]]) -> [String] {
        Presentation.alignedTable(header: header, rows: rows)
    }
}
