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
}
