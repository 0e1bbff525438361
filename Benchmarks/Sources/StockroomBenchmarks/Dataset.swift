import Foundation
import Inventory

/// The data every implementation works on: generated once, deterministically, per size.
enum Dataset {
    static let adjectives = ["Sturdy", "Compact", "Wireless", "Vintage", "Modular", "Quiet", "Rugged", "Slim",
                             "Classic", "Smart", "Heavy", "Portable", "Bright", "Silent", "Rapid", "Tiny"]
    static let nouns = ["Keyboard", "Charger", "Phone", "Headphones", "Mouse", "Monitor", "Cable", "Adapter",
                        "Speaker", "Camera", "Tablet", "Router", "Lamp", "Drive", "Hub", "Stand"]

    /// `count` items with names like "Sturdy Keyboard 000123", a mix of colours (and none) and
    /// of every status case: 60% in stock, 25% out of stock, 15% on back order.
    static func items(count: Int, seed: UInt64 = 2026) -> [Item] {
        var generator = SplitMix64(state: seed)
        var items: [Item] = []
        items.reserveCapacity(count)
        let colors: [Color?] = [nil] + Color.allCases
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        for index in 0..<count {
            let adjective = adjectives[Int(generator.next() % UInt64(adjectives.count))]
            let noun = nouns[Int(generator.next() % UInt64(nouns.count))]
            let roll = generator.next() % 100
            let status: Status = roll < 60 ? .inStock(quantity: Int(generator.next() % 500) + 1)
                : .outOfStock(isOnBackOrder: roll >= 85)
            // Ids are UUIDv7 as the product makes them: time-ordered, one millisecond apart.
            let id = UUID.version7(now: start.addingTimeInterval(Double(index) / 1000))
            items.append(Item(id: id, name: "\(adjective) \(noun) \(String(index).leftPadded(to: 6))",
                              color: colors[Int(generator.next() % UInt64(colors.count))], status: status))
        }
        return items
    }

    /// Page queries for W3: (colour, name prefix) pairs that each match a few hundred of 1M items.
    static func pageQueries(count: Int, seed: UInt64 = 7) -> [(Color, String)] {
        var generator = SplitMix64(state: seed)
        return (0..<count).map { _ in
            let color = Color.allCases[Int(generator.next() % UInt64(Color.allCases.count))]
            let adjective = adjectives[Int(generator.next() % UInt64(adjectives.count))]
            let noun = nouns[Int(generator.next() % UInt64(nouns.count))]
            return (color, "\(adjective) \(noun.prefix(2))")
        }
    }
}

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
