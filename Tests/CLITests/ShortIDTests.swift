import Foundation
import Glibc
import Inventory
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// Issue 37: event lines printed an id's first 8 characters, which for UUIDv7 ids are their
/// creation time, so items made within minutes looked the same. Lines now show the id's short
/// form (first 4 … last 8, the last ones random) and the item's name beside it, and whatever a
/// line prints is taken where an id is typed.
@Suite struct ShortIDTests {
    let fixture = CLIDatabase()

    /// Adds an item in its own process; returns its id.
    func add(_ name: String) throws -> UUID {
        let added = try fixture.stockroom("items", "add", "--name", name, "--quantity", "1")
        try #require(added.status == 0, "\(added)")
        return try #require(UUID(uuidString: added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The ITEM and NAME columns of the table's event lines (the header's columns, by position).
    func itemsAndNames(_ output: String) throws -> [(item: String, name: String)] {
        let lines = output.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header == Presentation.eventHeader)
        let item = try #require(header.range(of: "ITEM")), name = try #require(header.range(of: "NAME")),
            version = try #require(header.range(of: "VERSION"))
        func column(_ line: String, _ from: Range<String.Index>, _ to: Range<String.Index>) -> String {
            let characters = Array(line)
            let start = header.distance(from: header.startIndex, to: from.lowerBound)
            let end = header.distance(from: header.startIndex, to: to.lowerBound)
            return String(characters[start..<min(end, characters.count)]).trimmingCharacters(in: .whitespaces)
        }
        return lines.dropFirst().map { (column($0, item, name), column($0, name, version)) }
    }

    @Test func eventLinesTellItemsMadeTogetherApartAndEachPrintedIDIsTaken() throws {
        let lamp = try add("Lamp"), desk = try add("Desk"), chair = try add("Chair")
        #expect(try fixture.stockroom("items", "update", lamp.lowercasedString, "--quantity", "3").status == 0)
        #expect(try fixture.stockroom("items", "update", desk.lowercasedString, "--name", "Standing desk").status == 0)
        #expect(try fixture.stockroom("items", "delete", chair.lowercasedString).status == 0)

        let table = try fixture.stockroom("events", "--format", "table")
        #expect(table.status == 0 && table.stderr.isEmpty, "\(table)")
        let columns = try itemsAndNames(table.stdout)
        let ids = [lamp, desk, chair, lamp, desk, chair]
        #expect(columns.map(\.item) == ids.map(Presentation.shortID))
        #expect(columns.map(\.name) == ["Lamp", "Desk", "Chair", "Lamp", "Standing desk", "Chair"])
        // Made within a second: what the old lines printed is the same for all three (the
        // creation time), what they print now is not.
        #expect(Set([lamp, desk, chair].map { $0.lowercasedString.prefix(8) }).count == 1)
        #expect(Set(columns.prefix(3).map(\.item)).count == 3)

        // Each printed id, and its spelling with three dots, is taken where an id is typed.
        for (id, printed) in zip([lamp, desk], columns.map(\.item)) {
            for typed in [printed, printed.replacingOccurrences(of: Presentation.shortIDSeparator, with: "...")] {
                let shown = try fixture.stockroom("items", "show", typed, "--format", "json")
                #expect(shown.status == 0 && shown.stdout.contains(id.lowercasedString), "\(typed): \(shown)")
            }
        }
        let history = try fixture.stockroom("items", "history", columns[2].item)  // the deleted chair
        #expect(history.status == 0 && history.stdout.contains("Added 'Chair'"), "\(history)")

        // After position 3, the lines never saw the items' naming events: the names are read.
        let later = try itemsAndNames(try fixture.stockroom("events", "--after", "3", "--format", "table").stdout)
        #expect(later.map(\.name) == ["Lamp", "Standing desk", "Chair"])

        // And so does a follower, from its own reading of the names.
        let follower = try BackgroundProcess(Processes.stockroomPath, ["events", "--follow", "--after", "3", "--format", "table"],
                                             environment: ["STOCKROOM_DB": fixture.path], deadlineSeconds: 60)
        var followed = ""
        for _ in 0..<4 { followed += try #require(follower.readLine(), "the follower's output ended") + "\n" }
        kill(follower.processIdentifier, SIGINT)
        #expect(follower.wait().status == 0)
        #expect(try itemsAndNames(followed).map(\.name) == ["Lamp", "Standing desk", "Chair"])
    }

    @Test func aShortFormTwoIDsShareIsRefusedAndChangesNothing() throws {
        // Two ids with the same first 4 and last 8 digits, written by hand.
        #expect(try fixture.stockroom("migrate", "up").status == 0)
        _ = try fixture.sqlite3("""
            INSERT INTO items (id, name, status, quantity, created_at, updated_at) VALUES
              ('0193a1f2-5c3e-7000-8000-0000aaaa0001', 'A', 'in_stock', 1, '2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00.000Z'),
              ('0193b1f2-5c3e-7000-8000-0001aaaa0001', 'B', 'in_stock', 1, '2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00.000Z');
            """)
        try fixture.expectRefusal("items", "show", "0193\u{2026}aaaa0001", code: .usage, mentioning: "matches more than one item")
        try fixture.expectRefusal("items", "update", "0193...aaaa0001", "--quantity", "2", code: .usage,
                                  mentioning: "matches more than one item")
        try fixture.expectRefusal("items", "show", "0193...ffff0001", code: .notFound)
        try fixture.expectRefusal("items", "show", "0193...aa", code: .usage, mentioning: "short form")
        let longer = try fixture.stockroom("items", "show", "0193...0001aaaa0001", "--format", "json")
        #expect(longer.status == 0 && longer.stdout.contains("0193b1f2"), "\(longer)")
    }
}
