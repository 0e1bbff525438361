import Foundation
import Inventory
import TextFormats
import Testing

/// The name rule, in the domain: no control characters; invisible characters count as blank.
@Suite struct ItemNameTests {
    @Test(arguments: ["\u{1B}[2J", "a\tb", "line\nbreak", "del\u{7F}", "csi\u{9B}31m", "nul\u{0}", "\u{85}"])
    func controlCharactersAreRefusedWhereverTheNameIsSet(name: String) throws {
        #expect(ItemName.problem(in: name) != nil)
        #expect(throws: InventoryError.self) { try Item(name: name).validate() }
        #expect(throws: InventoryError.self) { try Draft.newItem().applying(ItemEdit(name: name)) }
    }

    @Test func theProblemNamesTheCharacterAndItsPosition() {
        let problem = ItemName.problem(in: "abc\u{1B}[2J")
        #expect(problem == .controlCharacterInName(0x1B, position: 4))
        #expect(problem?.description.hasPrefix("the name contains a control character (U+001B) at position 4") == true)
    }

    @Test(arguments: ["", " ", "\u{200B}", "\u{200C}\u{200D}", "\u{2060}", "\u{FEFF}", "\u{00A0}", "\u{2007}\u{202F}",
                      "\u{3000}", "\u{00AD}", "\u{3164}", " \u{200B}\u{00A0} "])
    func invisibleNamesAreBlank(name: String) {
        #expect(Item.isBlank(name))
        #expect(throws: InventoryError.blankName) { try Item(name: name).validate() }
    }

    @Test(arguments: ["Keyboard", "Café", "键盘", "🎹", "a\u{200B}b", "Ｋ"])
    func visibleNamesAreKept(name: String) throws {
        #expect(!Item.isBlank(name))
        try Item(name: name).validate()
        #expect(Presentation.displayName(name) == name)
    }

    @Test func storedControlCharactersAreShownEscapedNeverRaw() {
        let name = "evil\u{1B}[31mred\nx\u{9B}\u{7F}"
        let outputs = [Presentation.displayName(name), JSONPresentation.object(for: Item(name: name))]
        for output in outputs {
            #expect(!output.unicodeScalars.contains(where: ControlCharacters.contains), "\(output.debugDescription)")
        }
        #expect(Presentation.displayName(name) == #"evil\u001b[31mred\nx\u009b\u007f"#)
    }

    @Test func theASCIIShortcutAgreesWithUnicodesProperties() {
        for value in UInt32(0)...0x7F {
            let scalar = Unicode.Scalar(value)!
            #expect(ItemName.isInvisible(scalar) == (scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint),
                    "U+\(String(value, radix: 16))")
        }
    }
}
