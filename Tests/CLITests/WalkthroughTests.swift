import Foundation
import StockroomTestSupport
import Testing

/// The README's walk-through, run through the real binary on a real file.
@Suite struct WalkthroughTests {
    let database = CLIDatabase()

    @Test func sampleItemsListInNameOrderWithTheirStatus() throws {
        #expect(try database.stockroom("items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "100").status == 0)
        #expect(try database.stockroom("items", "add", "--name", "Charger", "--color", "yellow", "--quantity", "20").status == 0)
        #expect(try database.stockroom("items", "add", "--name", "Phone", "--color", "green", "--out-of-stock", "--back-order").status == 0)
        #expect(try database.stockroom("items", "add", "--name", "Headphones", "--color", "green", "--out-of-stock").status == 0)

        let list = try database.stockroom("items", "list")
        #expect(list.status == 0, "\(list)")
        let rows = list.lines.dropFirst().map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows.map { $0.split(separator: " ").first.map(String.init) } == ["Charger", "Headphones", "Keyboard", "Phone"])
        #expect(list.lines.contains { $0.contains("Keyboard    blue    In stock: 100") })
        #expect(list.lines.contains { $0.contains("Phone       green   Out of stock: on back order") })
        #expect(list.lines.contains { $0.contains("Headphones  green   Out of stock") })
    }
}
