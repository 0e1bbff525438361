import Foundation
import Inventory
import StockroomStore
import StockroomTestSupport
import Testing

/// Import, export and copy in-process, through the store's public API, on both engines (a
/// SQLite file and a schema on the test PostgreSQL server): the contract suite's share of the
/// transfer paths, which the CLI suites also reach end to end through the binary.
@Suite struct TransferContractTests {
    /// Items of every status and colour, a few of them changed so that they have a history.
    static func fill(_ test: TestStore, count: Int = 30, seed: UInt64 = 18) throws -> [Item] {
        let items = Generated.items(count: count, seed: seed)
        try test.store.items.insert(contentsOf: items)
        for item in items.prefix(5) {
            try test.store.items.update(id: item.id, with: ItemEdit(name: item.name + " (renamed)"))
        }
        return try test.store.items.everyItem()
    }

    /// Every item's history, by id, including the items deleted since.
    static func histories(_ store: InventoryStore, ids: [UUID]) throws -> [UUID: [RecordedItemEvent]] {
        var histories: [UUID: [RecordedItemEvent]] = [:]
        for id in ids { histories[id] = try store.items.history(id: id) }
        return histories
    }

    static func export(_ store: InventoryStore, _ format: TransferFormat, to path: String) throws -> String {
        _ = try ItemExport.write(format, from: store, toFile: path)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func importing(_ path: String, _ format: TransferFormat, onConflict: ItemImport.ConflictPolicy = .fail,
                          into store: InventoryStore) throws -> ItemImport.Summary {
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0, "\(path) cannot be opened")
        defer { close(descriptor) }
        return try ItemImport(format: format, onConflict: onConflict).run(reading: descriptor, into: store)
    }

    /// The 1-based place of `item` among `items` in id order, the order of an export.
    static func place(of item: Item, among items: [Item]) -> Int {
        items.map(\.id.lowercasedString).sorted().firstIndex(of: item.id.lowercasedString)! + 1
    }

    @Test(arguments: Engine.allCases, [TransferFormat.csv, .jsonl])
    func anExportImportsBackIntoTheSameItemsAndExportsTheSameBytes(_ engine: Engine, _ format: TransferFormat) throws {
        let source = try TestStore(engine)
        let items = try Self.fill(source)
        let file = source.directory.path("items.\(format.rawValue)")
        let exported = try Self.export(source.store, format, to: file)

        let target = try TestStore(engine)
        let summary = try Self.importing(file, format, into: target.store)
        #expect(summary.rows == items.count)
        #expect(summary.imported == items.count)
        #expect(summary.skipped == 0 && summary.replaced == 0 && !summary.dryRun)
        #expect(Set(try target.store.items.everyItem()) == Set(items))
        // The times travel with the rows, so the second export is the first, byte for byte.
        #expect(try Self.export(target.store, format, to: target.directory.path("again.\(format.rawValue)")) == exported)
        // Each imported item starts its history with one 'added' event.
        for item in items { #expect(try target.store.items.version(id: item.id) == 1) }
    }

    /// A store holding `kept` and `other`, and a file holding `kept` renamed and `new`.
    struct Conflict {
        let test: TestStore
        let kept: Item, other: Item, renamed: Item, new: Item
        let file: String

        init(_ engine: Engine, _ format: TransferFormat) throws {
            test = try TestStore(engine)
            kept = Item(name: "Kept", color: .red, status: .inStock(quantity: 3))
            other = Item(name: "Other", color: nil, status: .outOfStock(isOnBackOrder: true))
            try test.store.items.insert(contentsOf: [kept, other])
            renamed = Item(id: kept.id, name: "Kept, renamed", color: .blue, status: .inStock(quantity: 4))
            new = Item(name: "New", color: .green, status: .outOfStock(isOnBackOrder: false))
            // The file is made by exporting a scratch file that holds exactly its rows.
            let scratch = try TestStore(.sqlite)
            try scratch.store.items.insert(contentsOf: [renamed, new])
            file = test.directory.path("conflict.\(format.rawValue)")
            _ = try TransferContractTests.export(scratch.store, format, to: file)
        }
    }

    @Test(arguments: Engine.allCases, [TransferFormat.csv, .jsonl])
    func onConflictFailRefusesTheWholeFileNamingTheLine(_ engine: Engine, _ format: TransferFormat) throws {
        let conflict = try Conflict(engine, format)
        // Rows are in id order (two ids made in one millisecond may be in either), after a CSV's header.
        let line = (format == .csv ? 1 : 0) + Self.place(of: conflict.renamed, among: [conflict.renamed, conflict.new])
        let rejection = try #require(throws: ImportRejection.self) {
            try Self.importing(conflict.file, format, onConflict: .fail, into: conflict.test.store)
        }
        #expect(rejection.total == 1)
        #expect(rejection.problems.map(\.line) == [line])
        #expect(rejection.problems.first?.reason.contains(conflict.kept.id.lowercasedString) == true, "\(rejection.problems)")
        #expect(Set(try conflict.test.store.items.everyItem()) == [conflict.kept, conflict.other])
        #expect(try conflict.test.store.items.version(id: conflict.kept.id) == 1)
    }

    @Test(arguments: Engine.allCases, [TransferFormat.csv, .jsonl])
    func onConflictSkipKeepsTheStoredItemAndAddsTheRest(_ engine: Engine, _ format: TransferFormat) throws {
        let conflict = try Conflict(engine, format)
        let summary = try Self.importing(conflict.file, format, onConflict: .skip, into: conflict.test.store)
        #expect(summary.rows == 2)
        #expect(summary.imported == 1)
        #expect(summary.skipped == 1)
        #expect(summary.replaced == 0)
        #expect(Set(try conflict.test.store.items.everyItem()) == [conflict.kept, conflict.other, conflict.new])
        #expect(try conflict.test.store.items.version(id: conflict.kept.id) == 1)
    }

    @Test(arguments: Engine.allCases, [TransferFormat.csv, .jsonl])
    func onConflictReplaceOverwritesTheStoredItemAndRecordsTheChange(_ engine: Engine, _ format: TransferFormat) throws {
        let conflict = try Conflict(engine, format)
        let summary = try Self.importing(conflict.file, format, onConflict: .replace, into: conflict.test.store)
        #expect(summary.rows == 2)
        #expect(summary.imported == 1)
        #expect(summary.skipped == 0)
        #expect(summary.replaced == 1)
        #expect(Set(try conflict.test.store.items.everyItem()) == [conflict.renamed, conflict.other, conflict.new])
        let history = try conflict.test.store.items.history(id: conflict.kept.id)
        #expect(history.count == 2)
        #expect(history.last?.version == 2)
        guard case .changed = history.last?.event else {
            Issue.record("the replacement was recorded as \(String(describing: history.last?.event))")
            return
        }
    }

    @Test(arguments: Engine.allCases, [TransferFormat.csv, .jsonl])
    func aBadRowIsRefusedWithItsLineAndNothingIsImported(_ engine: Engine, _ format: TransferFormat) throws {
        let test = try TestStore(engine)
        let scratch = try TestStore(.sqlite)
        let good = Item(name: "Good", color: nil, status: .inStock(quantity: 1))
        let bad = Item(name: "Bad", color: .yellow, status: .inStock(quantity: 2))
        try scratch.store.items.insert(contentsOf: [good, bad])
        let file = test.directory.path("bad.\(format.rawValue)")
        // The second row's colour becomes one Stockroom does not know; the first row is valid.
        let text = try Self.export(scratch.store, format, to: file).replacingOccurrences(of: "yellow", with: "mauve")
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let rejection = try #require(throws: ImportRejection.self) {
            try Self.importing(file, format, into: test.store)
        }
        #expect(rejection.total == 1)
        #expect(rejection.problems.map(\.line) == [(format == .csv ? 1 : 0) + Self.place(of: bad, among: [good, bad])])
        #expect(rejection.problems.first?.reason.contains("mauve") == true, "\(rejection.problems)")
        #expect(try test.store.items.count() == 0)
        #expect(try test.store.items.lastEventPosition() == 0)
    }

    @Test func copyFromSQLiteToPostgreSQLAndBackKeepsItemsAndHistory() throws {
        let file = try TestStore(.sqlite)
        _ = try Self.fill(file)
        let deleted = try file.store.items.everyItem()[7]
        try file.store.items.delete(id: deleted.id)
        let items = try file.store.items.everyItem()
        let ids = items.map(\.id) + [deleted.id]
        let histories = try Self.histories(file.store, ids: ids)
        let events = try file.store.items.events(after: nil, limit: 10_000)

        let server = try TestStore(.postgres)
        let there = try InventoryCopy.run(from: .file(file.path), to: .postgres(server.schema!.uri), replacing: false)
        #expect(there.rows[.items] == items.count)
        #expect(there.rows[.itemEvents] == events.count)
        #expect(Set(try server.store.items.everyItem()) == Set(items))
        #expect(try Self.histories(server.store, ids: ids) == histories)
        #expect(try server.store.items.events(after: nil, limit: 10_000) == events)
        try Self.expectSearchFindsEveryName(server.store, items)

        let back = file.directory.path("back.sqlite")
        let returned = try InventoryCopy.run(from: .postgres(server.schema!.uri), to: .file(back), replacing: false)
        #expect(returned.checksum == there.checksum)
        let copy = try InventoryStore(path: back)
        #expect(Set(try copy.items.everyItem()) == Set(items))
        #expect(try Self.histories(copy, ids: ids) == histories)
        #expect(try copy.items.events(after: nil, limit: 10_000) == events)
        try Self.expectSearchFindsEveryName(copy, items)
        // History goes on from where it was: the next change is the next version and position.
        let changed = items[0]
        try copy.items.update(id: changed.id, with: ItemEdit(name: "Changed after the copy"))
        #expect(try copy.items.version(id: changed.id) == (histories[changed.id]?.count ?? 0) + 1)
        #expect(try copy.items.lastEventPosition() == Int64(events.count + 1))
    }

    /// The copy sets the triggers aside, the search ranges' among them, and rebuilds the ranges
    /// from the rows: a search for any name finds what the rule finds.
    static func expectSearchFindsEveryName(_ store: InventoryStore, _ items: [Item]) throws {
        for item in items where item.name.unicodeScalars.count >= 3 {
            var term = String.UnicodeScalarView()
            term.append(contentsOf: item.name.unicodeScalars.suffix(4))
            let query = ItemQuery(nameContains: String(term), limit: 5)
            #expect(try store.items.list(matching: query) == ItemSearchTests.expected(items, query), "\(String(term).debugDescription)")
        }
    }
}
