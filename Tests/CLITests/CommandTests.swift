import Foundation
import StockroomMigrations
@testable import stockroom
import StockroomTestSupport
import Testing

/// The CLI contract, command by command, through the built binary.
@Suite struct CommandTests {
    let database = CLIDatabase()
    var directory: TemporaryDirectory { database.directory }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func addPrintsTheNewIdAndShowAcceptsAnyCasePrefix() throws {
        let added = try database.stockroom("items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "100")
        #expect(added.status == 0)
        let id = added.output
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        let shown = try database.stockroom("items", "show", String(id.uppercased().prefix(13)), "--format", "json")
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.output == #"{"id":"\#(id)","name":"Keyboard","color":"blue","status":{"case":"inStock","quantity":100}"# + ItemShape.jsonNulls + #","version":1}"#)
        let table = try database.stockroom("items", "show", id)
        #expect(table.lines.contains("status:   In stock: 100"))
        #expect(table.lines.last == "version:  1")
    }

    @Test func defaultStatusIsInStockOne() throws {
        let id = try database.stockroom("items", "add", "--name", "Cable").output
        let item = try json(try database.stockroom("items", "show", id, "--format", "json").output) as? [String: Any]
        #expect((item?["status"] as? [String: Any])?["quantity"] as? Int == 1)
        #expect(item?["color"] is NSNull)
    }

    @Test func listFiltersPagesAndFormats() throws {
        for (name, extra) in [("Keyboard", ["--color", "blue", "--quantity", "100"]), ("Charger", ["--color", "yellow", "--quantity", "20"]),
                              ("Phone", ["--color", "green", "--out-of-stock", "--back-order"]), ("Headphones", ["--color", "green", "--out-of-stock"]),
                              ("Comma, \"Quoted\" Cable", [])] {
            #expect(try database.stockroom(arguments: ["items", "add", "--name", name] + extra).status == 0)
        }
        func names(_ arguments: String...) throws -> [String] {
            let result = try database.stockroom(arguments: ["items", "list", "--format", "json"] + arguments)
            #expect(result.status == 0, "\(result)")
            return (try json(result.output) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(try names() == ["Charger", "Comma, \"Quoted\" Cable", "Headphones", "Keyboard", "Phone"])
        #expect(try names("--in-stock") == ["Charger", "Comma, \"Quoted\" Cable", "Keyboard"])
        #expect(try names("--out-of-stock") == ["Headphones", "Phone"])
        #expect(try names("--back-order") == ["Phone"])
        #expect(try names("--color", "green") == ["Headphones", "Phone"])
        #expect(try names("--search", "PHONE") == ["Headphones", "Phone"])
        #expect(try names("--limit", "2", "--offset", "1") == ["Comma, \"Quoted\" Cable", "Headphones"])
        #expect(try names("--search", "nothing like it") == [])

        let csv = try database.stockroom("items", "list", "--format", "csv", "--in-stock")
        #expect(csv.stdout.hasPrefix("id,name,color,status,quantity,is_on_back_order" + ItemShape.csvColumns + "\r\n"))
        #expect(csv.stdout.contains(#","Comma, ""Quoted"" Cable",,in_stock,1,"# + ItemShape.csvEmptyCells + "\r\n"))
        #expect(csv.lines.count == 4)

        let table = try database.stockroom("items", "list", "--color", "green")
        #expect(table.lines.first?.hasPrefix("ID") == true)
        // After the id, the first schema's columns, aligned, then a dash for each field the
        // items have none of.
        let rows = table.lines.dropFirst().map { $0.dropFirst(38) }
        let firstColumns = ["Headphones  green  Out of stock                 ", "Phone       green  Out of stock: on back order  "]
        #expect(rows.map { $0.prefix(firstColumns[0].count) } == firstColumns.map { $0[...] }, "\(table)")
        #expect(rows.map { $0.dropFirst(firstColumns[0].count).split(separator: " ").map(String.init) } == [ItemShape.tableDashes, ItemShape.tableDashes], "\(table)")
    }

    @Test func updateChangesOnlyWhatItIsTold() throws {
        let id = try database.stockroom("items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "100").output
        #expect(try database.stockroom("items", "update", id, "--quantity", "99").output == "Keyboard  blue  In stock: 99")
        #expect(try database.stockroom("items", "update", id, "--no-color").output == "Keyboard  -  In stock: 99")
        #expect(try database.stockroom("items", "update", id, "--out-of-stock", "--back-order", "--name", "Clacky").output == "Clacky  -  Out of stock: on back order")
        #expect(try database.stockroom("items", "update", id, "--color", "red", "--format", "json").output
            == #"{"id":"\#(id)","name":"Clacky","color":"red","status":{"case":"outOfStock","isOnBackOrder":true}"# + ItemShape.jsonNulls + "}")
    }

    @Test func deleteRemovesTheItem() throws {
        let keep = try database.stockroom("items", "add", "--name", "Keep").output
        let drop = try database.stockroom("items", "add", "--name", "Drop").output
        #expect(try database.stockroom("items", "delete", drop).status == 0)
        expectFailure(try database.stockroom("items", "show", drop), code: .notFound)
        #expect(try database.stockroom("items", "show", keep).status == 0)
    }

    @Test func theDraftWorkflowAddEditSave() throws {
        let draft = try database.stockroom("draft", "add").output
        let shown = try json(try database.stockroom("draft", "show", draft, "--format", "json").output) as? [String: Any]
        #expect(shown?["case"] as? String == "adding")
        #expect(shown?["sourceItemId"] is NSNull)
        #expect((shown?["item"] as? [String: Any])?["name"] as? String == "")
        #expect(try database.stockroom("draft", "edit", draft, "--name", "Mouse", "--color", "black").output == "Mouse  black  In stock: 1")
        #expect(try database.stockroom("draft", "edit", draft, "--quantity", "7").output == "Mouse  black  In stock: 7")
        let itemID = try database.stockroom("draft", "save", draft).output
        let item = try database.stockroom("items", "show", itemID, "--format", "json").output
        #expect(item == #"{"id":"\#(itemID)","name":"Mouse","color":"black","status":{"case":"inStock","quantity":7}"# + ItemShape.jsonNulls + #","version":1}"#)
        #expect(try database.stockroom("draft", "list", "--format", "json").output == "[]")
        // The saved item's id is the one the draft showed as its item id.
        #expect((shown?["item"] as? [String: Any])?["id"] as? String == itemID)
    }

    @Test func duplicatesCopyTheItemAndSurviveItsDeletion() throws {
        let source = try database.stockroom("items", "add", "--name", "Phone", "--color", "green", "--out-of-stock", "--back-order").output
        let draft = try database.stockroom("draft", "duplicate", source).output
        let shown = try json(try database.stockroom("draft", "show", draft, "--format", "json").output) as? [String: Any]
        #expect(shown?["case"] as? String == "duplicating")
        #expect(shown?["sourceItemId"] as? String == source)
        #expect(try database.stockroom("items", "delete", source).status == 0)
        let copy = try database.stockroom("draft", "save", draft)
        #expect(copy.status == 0, "\(copy)")
        #expect(copy.output != source)
        #expect(try database.stockroom("items", "show", copy.output).lines.contains("status:   Out of stock: on back order"))
    }

    @Test func severalDraftsCanBeOpenAndCancelled() throws {
        let a = try database.stockroom("draft", "add", "--name", "A").output
        let b = try database.stockroom("draft", "add", "--name", "B", "--out-of-stock").output
        let listed = try database.stockroom("draft", "list")
        #expect(listed.lines.count == 3)
        #expect(try database.stockroom("draft", "cancel", a).status == 0)
        let remaining = try json(try database.stockroom("draft", "list", "--format", "json").output) as? [[String: Any]]
        #expect(remaining?.compactMap { $0["id"] as? String } == [b])
        #expect(try database.stockroom("items", "list", "--format", "json").output == "[]")
    }

    @Test func theDatabasePathComesFromFlagThenEnvironmentThenXDG() throws {
        let home = directory.path("home")
        let xdg = directory.path("xdg")
        let viaFlag = directory.path("flag.sqlite"), viaEnvironment = directory.path("env.sqlite")
        #expect(try database.stockroom("items", "add", "--name", "F", "--db", viaFlag, environment: ["STOCKROOM_DB": viaEnvironment]).status == 0)
        #expect(try database.stockroom("--db", viaFlag, "items", "list", "--format", "csv").lines.count == 2)
        #expect(!FileManager.default.fileExists(atPath: viaEnvironment))
        #expect(try database.stockroom("items", "add", "--name", "E", environment: ["STOCKROOM_DB": viaEnvironment]).status == 0)
        #expect(FileManager.default.fileExists(atPath: viaEnvironment))
        #expect(try Processes.stockroom(["items", "add", "--name", "X"], environment: ["HOME": home, "XDG_DATA_HOME": xdg]).status == 0)
        #expect(FileManager.default.fileExists(atPath: xdg + "/stockroom/stockroom.sqlite"))
        #expect(try Processes.stockroom(["items", "add", "--name", "H"], environment: ["HOME": home, "XDG_DATA_HOME": ""]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/stockroom/stockroom.sqlite"))
    }

    @Test func theBinaryCarriesItsMigrationsWhereverItIsInstalled() throws {
        let installed = directory.path("bin/stockroom")
        try FileManager.default.createDirectory(atPath: directory.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Processes.stockroomPath, toPath: installed)
        let result = try Processes.run(installed, ["items", "add", "--name", "Anywhere", "--db", database.path], workingDirectory: URL(fileURLWithPath: "/"))
        #expect(result.status == 0, "\(result)")
        let status = try Processes.run(installed, ["migrate", "status", "--db", database.path], workingDirectory: URL(fileURLWithPath: "/"))
        #expect(status.lines.filter { $0.contains("applied") }.count == MigrationSet.embedded(.sqlite).migrations.count, "\(status)")
    }

    @Test func helpReadsLikeAManPageAndExitsZero() throws {
        let help = try database.stockroom("--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("Exit codes"))
        let add = try database.stockroom("items", "add", "--help")
        #expect(add.status == 0)
        #expect(add.stdout.contains("--out-of-stock"))
        #expect(add.stdout.contains("--color <color>") && add.stdout.contains("yellow"))
    }
}
