import Foundation
import StockroomTestSupport
import Testing

/// An export is one snapshot: items written by another process while it runs are not in it,
/// and that process is not held up.
@Suite struct ExportSnapshotTests {
    @Test func anExportInProgressSeesOneSnapshotWhileAnotherProcessWrites() throws {
        let database = CLIDatabase()
        let count = 20_000
        var text = "name,status,quantity\n"
        for index in 0..<count { text += "Item number \(index) with a name long enough to fill the pipe,in_stock,\(index % 9 + 1)\n" }
        let file = database.directory.path("seed.csv")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try database.stockroom("import", file).status == 0)

        // The export blocks on its full output pipe inside its read transaction: the first line
        // arriving proves it is reading, and it cannot finish until this test reads the rest.
        let export = try BackgroundProcess(Processes.stockroomPath, ["export", "--db", database.path])
        let first = try #require(export.readLine())
        #expect(first.hasPrefix("{\"id\":\""))

        let added = try database.stockroom("items", "add", "--name", "Written during the export")
        #expect(added.status == 0, "\(added)")

        let result = export.wait()
        #expect(result.status == 0, "\(result)")
        let lines = [first] + result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == count)
        #expect(!result.stdout.contains("Written during the export"))
        #expect(try database.sqlite3("SELECT count(*) FROM items;") == "\(count + 1)")
    }
}
