import Foundation
@testable import stockroom
import StockroomTestSupport
import Testing

/// `stockroom items adjust ID --by N`: the counter's relative change from the command line.
@Suite struct AdjustCommandTests {
    let database = CLIDatabase()

    func added(_ arguments: String...) throws -> String {
        let result = try database.stockroom(arguments: ["items", "add"] + arguments)
        #expect(result.status == 0, "\(result)")
        return result.output
    }

    @Test func byMinusOneSellsOneAndPrintsTheItemAsUpdateDoes() throws {
        let id = try added("--name", "Keyboard", "--color", "blue", "--quantity", "3")
        let sold = try database.stockroom("items", "adjust", String(id.prefix(8)), "--by", "-1")
        #expect(sold.status == 0 && sold.stderr.isEmpty, "\(sold)")
        #expect(sold.output == "Keyboard  blue  In stock: 2")
        #expect(try database.stockroom("items", "adjust", id, "--by=-1").output == "Keyboard  blue  In stock: 1")
        #expect(try database.stockroom("items", "adjust", id, "--by", "10").output == "Keyboard  blue  In stock: 11")
        let json = try database.stockroom("items", "adjust", id, "--by", "-11", "--format", "json")
        #expect(json.output == #"{"id":"\#(id)","name":"Keyboard","color":"blue","status":{"case":"outOfStock","isOnBackOrder":false}"# + ItemShape.jsonNulls + "}", "\(json)")
        #expect(try database.stockroom("items", "adjust", id, "--by", "4").output == "Keyboard  blue  In stock: 4")
        // Each adjustment is one version, one 'changed' event.
        #expect(try database.sqlite3("SELECT group_concat(kind || ':' || coalesce(to_quantity, 0), ' ') FROM (SELECT * FROM item_events ORDER BY version);")
                == "added:3 changed:2 changed:1 changed:11 changed:0 changed:4")
        #expect(try database.stockroom("items", "show", id, "--format", "json").output.contains(#""version":6"#))
    }

    @Test func takingMoreThanIsInStockExits65AndChangesNothing() throws {
        let id = try added("--name", "Charger", "--quantity", "2")
        try database.expectRefusal("items", "adjust", id, "--by", "-3", code: .dataError,
                                   message: "only 2 in stock, cannot take 3; nothing was changed")
        let empty = try added("--name", "Phone", "--out-of-stock", "--back-order")
        try database.expectRefusal("items", "adjust", empty, "--by", "-1", code: .dataError,
                                   message: "none in stock, cannot take 1; nothing was changed")
    }

    @Test func byZeroChangesNothingAndRecordsNoVersion() throws {
        let id = try added("--name", "Phone", "--out-of-stock", "--back-order")
        let before = try database.contents()
        let result = try database.stockroom("items", "adjust", id, "--by", "0")
        #expect(result.status == 0 && result.output == "Phone  -  Out of stock: on back order", "\(result)")
        #expect(try database.contents() == before)
    }

    @Test func ifVersionStillGuardsAnAdjustment() throws {
        let id = try added("--name", "Cable", "--quantity", "5")
        try database.expectRefusal("items", "adjust", id, "--by", "-1", "--if-version", "2", code: .versionConflict,
                                   mentioning: "is at version 1, not 2")
        #expect(try database.stockroom("items", "adjust", id, "--by", "-1", "--if-version", "1").output == "Cable  -  In stock: 4")
        try database.expectRefusal("items", "adjust", id, "--by", "-1", "--if-version", "1", code: .versionConflict,
                                   mentioning: "changed since version 1")
    }

    @Test func badCommandLinesAndMissingItemsAreRefused() throws {
        let id = try added("--name", "Mouse")
        try database.expectRefusal("items", "adjust", id, code: .usage, mentioning: "--by")
        try database.expectRefusal("items", "adjust", id, "--by", "many", code: .usage, mentioning: "many")
        try database.expectRefusal("items", "adjust", id, "--by", "1.5", code: .usage)
        try database.expectRefusal("items", "adjust", id, "--by", "99999999999999999999", code: .usage)
        try database.expectRefusal("items", "adjust", id, "--by", "1", "--if-version", "0", code: .usage, mentioning: "--if-version")
        try database.expectRefusal("items", "adjust", "xyz!", "--by", "1", code: .usage, mentioning: "not a valid item id")
        try database.expectRefusal("items", "adjust", "00000000-0000-7000-8000-000000000000", "--by", "1", code: .notFound, mentioning: "no item")
        try database.expectRefusal("items", "adjust", id, "--by", String(Int.max), code: .dataError, mentioning: "most that can be counted")
    }
}
