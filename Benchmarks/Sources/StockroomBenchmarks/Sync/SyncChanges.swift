import Foundation
import Inventory

/// W14's offline work: what a replica does while it cannot reach its hub, and the rows the hub
/// holds once it has applied all of it. 50% adjustments, 30% sets (a new name or a new colour),
/// 20% additions, on items drawn at random from the hub's (so a few are changed twice, as at
/// a real counter). Every change applies cleanly: no adjustment takes stock below zero and every
/// set replaces the value the hub holds, so Stockroom and the floor end with the same rows.
struct SyncChanges {
    enum Change {
        case adjust(UUID, by: Int)
        case set(UUID, ItemEdit)
        case add(Item)
    }

    /// One write of the hub's rows, in the replica's order: the whole item after the change.
    struct Write {
        let inserted: Bool
        /// The adjustment's units, nil for a set or an addition.
        let adjustedBy: Int?
        let item: Item
    }

    let changes: [Change]
    let writes: [Write]

    static func generate(on items: [Item], count: Int, seed: UInt64 = 35) -> SyncChanges {
        var generator = SplitMix64(state: seed)
        var current: [UUID: Item] = [:]
        var changes: [Change] = [], writes: [Write] = []
        changes.reserveCapacity(count)
        writes.reserveCapacity(count)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<count {
            let kind = index % 10
            if kind >= 8 {
                let item = Item(id: UUID.version7(now: start.addingTimeInterval(Double(index) / 1000)),
                                name: "Stall Item \(String(index).leftPadded(to: 6))",
                                color: Color.allCases[index % Color.allCases.count], status: .inStock(quantity: 1 + index % 9))
                changes.append(.add(item))
                writes.append(Write(inserted: true, adjustedBy: nil, item: item))
                continue
            }
            let drawn = items[Int(generator.next() % UInt64(items.count))]
            var item = current[drawn.id] ?? drawn
            if kind < 5 {
                let quantity = item.status.quantityInStock
                let units = quantity >= 2 && generator.next() % 2 == 0 ? -1 : 1 + Int(generator.next() % 5)
                item.status = .inStock(quantity: quantity + units)
                changes.append(.adjust(item.id, by: units))
                writes.append(Write(inserted: false, adjustedBy: units, item: item))
            } else {
                let edit: ItemEdit
                if generator.next() % 2 == 0 {
                    item.name = "Renamed \(String(index).leftPadded(to: 6)) \(item.name.prefix(40))"
                    edit = ItemEdit(name: item.name)
                } else {
                    let colors = Color.allCases
                    let next = colors[((item.color.flatMap { colors.firstIndex(of: $0) } ?? -1) + 1) % colors.count]
                    item.color = next
                    edit = ItemEdit(color: .set(next))
                }
                changes.append(.set(item.id, edit))
                writes.append(Write(inserted: false, adjustedBy: nil, item: item))
            }
            current[item.id] = item
        }
        return SyncChanges(changes: changes, writes: writes)
    }

    /// The hub's items after every change: what both sides must end with.
    static func finalItems(_ items: [Item], after changes: SyncChanges) -> [UUID: Item] {
        var result = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        for write in changes.writes { result[write.item.id] = write.item }
        return result
    }

    // MARK: The floor's input

    /// The writes as lines of tab-separated text, for the floor's process: kind, adjustment,
    /// then the item (`\N` for NULL).
    func floorPlan() -> String {
        var text = ""
        for write in writes {
            let item = write.item
            let status: String
            switch item.status {
            case .inStock(let quantity): status = "in_stock\t\(quantity)\t\\N"
            case .outOfStock(let isOnBackOrder): status = "out_of_stock\t\\N\t\(isOnBackOrder ? 1 : 0)"
            }
            let color = item.color.map { RawImplementation.colorText($0).description } ?? "\\N"
            text += "\(write.inserted ? "I" : "U")\t\(write.adjustedBy.map(String.init) ?? "\\N")\t"
            text += "\(item.id.uuidString.lowercased())\t\(item.name)\t\(color)\t\(status)\t\(item.location?.text ?? "\\N")\n"
        }
        return text
    }

    /// Reads ``floorPlan()``'s text back.
    static func writes(fromPlan text: String) throws -> [Write] {
        try text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 9, let id = UUID(uuidString: fields[2]) else { throw BenchmarkError(message: "bad plan line \(line)") }
            func value(_ index: Int) -> String? { fields[index] == "\\N" ? nil : fields[index] }
            let color = value(4).flatMap { name in Color.allCases.first { RawImplementation.colorText($0).description == name } }
            let status: Status = fields[5] == "in_stock" ? .inStock(quantity: Int(fields[6]) ?? 0) : .outOfStock(isOnBackOrder: fields[7] == "1")
            let item = Item(id: id, name: fields[3], color: color, status: status, location: value(8).map { ItemLocation(stored: $0) })
            return Write(inserted: fields[0] == "I", adjustedBy: value(1).flatMap { Int($0) }, item: item)
        }
    }

    /// The intent id the floor records for write `index`: any distinct UUIDs do, as long as
    /// they are the same length as Stockroom's.
    static func floorIntentID(_ index: Int) -> UUID {
        UUID(uuidString: "0193a000-0000-4000-8000-" + String(String(index, radix: 16).leftPadded(to: 12)))!
    }

    /// The origin the floor records: the replica's id on Stockroom's side.
    static let floorOrigin = UUID(uuidString: "0193a000-0000-7000-8000-000000000035")!
}
