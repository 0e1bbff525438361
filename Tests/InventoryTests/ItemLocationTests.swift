import Inventory
import TextFormats
import Testing

/// The location rule, in the domain: trimmed, blank means none, no control characters, at most
/// 200 Unicode scalars; and a location change is an event of its own.
@Suite struct ItemLocationTests {
    @Test func itIsTrimmedAndBlankMeansNone() throws {
        #expect(try ItemLocation.parse("  Shelf B3\u{00A0}")?.text == "Shelf B3")
        for blank in ["", " ", "\u{200B}", " \u{00A0} "] {
            #expect(try ItemLocation.parse(blank) == nil)
        }
    }

    @Test(arguments: ["a\tb", "line\nbreak", "\u{1B}[2J", "del\u{7F}", "csi\u{9B}"])
    func controlCharactersAreRefused(text: String) {
        #expect(throws: InventoryError.self) { try ItemLocation.parse(text) }
        #expect(throws: InventoryError.self) { try ItemEdit(location: .set(ItemLocation(stored: text))).applied(to: Item(name: "Mug")) }
    }

    @Test func twoHundredScalarsAreTheLimit() throws {
        #expect(try ItemLocation.parse(String(repeating: "é", count: 200))?.text.unicodeScalars.count == 200)
        #expect(throws: InventoryError.textTooLong(.location, 201)) { try ItemLocation.parse(String(repeating: "x", count: 201)) }
        #expect(InventoryError.textTooLong(.location, 201).description == "a location is at most 200 characters (got 201)")
    }

    @Test func aChangeOfLocationAloneIsAnEventAndReadsAsOne() throws {
        let before = Item(name: "Mug", location: try ItemLocation.parse("Shelf B3"))
        var after = before
        after.location = nil
        let changes = try #require(ItemChanges(from: before, to: after))
        #expect(changes.name == nil && changes.color == nil && changes.status == nil)
        #expect(changes.fits(before) && changes.applied(to: before) == after)
        #expect(Presentation.text(for: .changed(changes)) == "Location 'Shelf B3' -> none")
        #expect(JSONPresentation.object(for: before).contains(#","location":"Shelf B3""#))
        #expect(Presentation.details(for: after).contains("location: -"))
        #expect(Draft.duplicate(of: before).item.location == before.location)
    }

    @Test func aStoredControlCharacterIsShownEscaped() {
        let item = Item(name: "Mug", location: ItemLocation(stored: "a\u{1B}[31m"))
        let shown = Presentation.text(of: .location, in: item)
        #expect(!shown.unicodeScalars.contains(where: ControlCharacters.contains))
    }
}
