import Foundation
import Inventory
import SQLiteCore
@testable import StockroomStore
import StockroomTestSupport
import Testing

/// Every change recorded as one event through the event codec, read back as the same value.
@Suite struct ItemHistoryTests {
    /// Random edits touching any non-empty subset of the fields, over generated values.
    static func edits(count: Int, seed: UInt64) -> [ItemEdit] {
        var generator = SeededGenerator(state: seed)
        let statuses = Generated.statuses(count: count, seed: seed)
        let colors: [ItemEdit.ColorChange] = [.remove] + Color.allCases.map { .set($0) }
        return (0..<count).map { index in
            var edit = ItemEdit()
            repeat {
                if Bool.random(using: &generator) { edit.name = Generated.names.randomElement(using: &generator)! + " \(index % 3)" }
                if Bool.random(using: &generator) { edit.color = colors.randomElement(using: &generator)! }
                if Bool.random(using: &generator) { edit.status = statuses[index] }
            } while edit.isEmpty
            return edit
        }
    }

    @Test(arguments: Engine.allCases)
    func generatedChangesRoundTripThroughTheEventColumns(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let items = test.store.items
        var expected: [UUID: [ItemEvent]] = [:]
        let originals = Generated.items(count: 40, seed: 7)
        try items.insert(contentsOf: originals)
        for item in originals { expected[item.id] = [.added(item)] }
        for (index, edit) in ItemHistoryTests.edits(count: 400, seed: 11).enumerated() {
            let id = originals[index % originals.count].id
            let before = try items.item(id: id)
            let after = try items.update(id: id, with: edit)
            if let changes = ItemChanges(from: before, to: after) { expected[id]!.append(.changed(changes)) }
        }
        for item in originals.prefix(10) {
            try items.delete(id: item.id)
            expected[item.id]!.append(.deleted)
        }
        var changedCount = 0
        for item in originals {
            let history = try items.history(id: item.id)
            #expect(history.map(\.event) == expected[item.id]!)
            #expect(history.map(\.version) == Array(1...history.count), "versions start at 1 and have no gaps")
            #expect(history.allSatisfy { $0.itemID == item.id })
            changedCount += history.count { if case .changed = $0.event { true } else { false } }
        }
        #expect(changedCount > 300, "most edits change something, so the codec saw many combinations")
        // `check` runs on SQLite only so far.
        if let database = test.store.database { #expect(try DatabaseCheck.run(on: database).problems.isEmpty) }
    }

    @Test(arguments: Engine.allCases)
    func anEditThatChangesNothingRecordsNoVersion(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Mug", color: .blue, status: .inStock(quantity: 2))
        try test.store.items.insert(item)
        try test.store.items.update(id: item.id, with: ItemEdit(name: "Mug", color: .set(.blue)))
        #expect(try test.store.items.version(id: item.id) == 1)
    }

    @Test(arguments: Engine.allCases)
    func ifVersionUpdatesOnlyTheVersionItNames(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Mug")
        try test.store.items.insert(item)
        try test.store.items.update(id: item.id, with: ItemEdit(name: "Cup"), ifVersion: 1)
        #expect(throws: StoreError.versionConflict(id: item.id.lowercasedString, expected: 1, current: 2)) {
            try test.store.items.update(id: item.id, with: ItemEdit(name: "Bowl"), ifVersion: 1)
        }
        #expect(try test.store.items.item(id: item.id).name == "Cup")
        #expect(try test.store.items.version(id: item.id) == 2)
    }

    @Test(arguments: Engine.allCases)
    func aSavedDraftStartsItsItemsHistory(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let entry = try test.store.drafts.startAdding(ItemEdit(name: "Lamp", status: .outOfStock(isOnBackOrder: true)))
        let item = try test.store.drafts.save(id: entry.id)
        #expect(try test.store.items.history(id: item.id).map(\.event) == [.added(item)])
    }

    @Test(arguments: Engine.allCases)
    func historyOutlivesTheItemAndResolvesPrefixes(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let item = Item(name: "Mug")
        try test.store.items.insert(item)
        try test.store.items.delete(id: item.id)
        let id = try test.store.items.resolveHistoryID(String(item.id.lowercasedString.prefix(8)).uppercased())
        #expect(id == item.id)
        #expect(try test.store.items.history(id: id).map(\.event) == [.added(item), .deleted])
        #expect(throws: StoreError.self) { try test.store.items.resolveID(item.id.lowercasedString) }
    }
}
