import Foundation
import Inventory
import Testing

/// An id's stored text: lowercase canonical form, the same as Foundation's, read back exactly.
@Suite struct UUIDTextTests {
    @Test func theStoredTextIsFoundationsInLowercaseAndReadsBack() {
        var ids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
                   UUID(uuid: (0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10))]
        ids += (0..<1_000).map { _ in UUID() } + (0..<1_000).map { _ in UUID.version7() }
        for id in ids {
            #expect(id.lowercasedString == id.uuidString.lowercased())
            let back = id.withLowercasedUTF8 { UUID(canonicalUTF8: $0) }
            #expect(back == id)
        }
    }

    /// Every byte value at every position of some ids, in either letter case: the parser takes
    /// exactly the canonical form (36 bytes, dashes at 8, 13, 18 and 23, hex digits in either
    /// case elsewhere) with Foundation's value for it, and nothing else. (Foundation's own
    /// `UUID(uuidString:)` is no oracle for what to refuse: it takes a tab for a digit.)
    @Test func readingTakesExactlyTheCanonicalFormAsFoundationDoes() {
        let ids = [UUID(uuid: (0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10))]
            + (0..<8).map { _ in UUID() }
        func parsed(_ bytes: [UInt8]) -> UUID? { bytes.withUnsafeBufferPointer { UUID(canonicalUTF8: $0) } }
        func expected(_ bytes: [UInt8]) -> UUID? {
            let hex = Set("0123456789abcdefABCDEF".utf8)
            let canonical = bytes.count == 36 && bytes.indices.allSatisfy { position in
                [8, 13, 18, 23].contains(position) ? bytes[position] == UInt8(ascii: "-") : hex.contains(bytes[position])
            }
            return canonical ? UUID(uuidString: String(decoding: bytes, as: UTF8.self)) : nil
        }
        for (number, id) in ids.enumerated() {
            let text = number.isMultiple(of: 2) ? id.uuidString : id.uuidString.lowercased()
            let bytes = Array(text.utf8)
            #expect(parsed(bytes) == id)
            for position in bytes.indices {
                for value in UInt8.min...UInt8.max where value != bytes[position] {
                    var changed = bytes
                    changed[position] = value
                    let (got, want) = (parsed(changed), expected(changed))
                    if got != want {
                        Issue.record("\(text) with byte \(value) at \(position): \(String(describing: got)), Foundation \(String(describing: want))")
                        return
                    }
                }
            }
            #expect(parsed(Array(bytes.dropLast())) == nil)
            #expect(parsed(bytes + [UInt8(ascii: "0")]) == nil)
            #expect(parsed([]) == nil)
        }
    }
}
