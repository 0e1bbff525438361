import Foundation
import Inventory
import StockroomStore
import StockroomTestSupport
import Testing

/// The rules of an import written once over the seam (ItemImport.run): the same problems, in
/// line order, with the same messages and the same summary on both engines for the same input
/// and store, and a dry run that finds what the import would.
extension TransferContractTests {
    /// Stored items, one of them deleted since (its history is kept), made once so that both
    /// engines hold the same ids.
    struct RulesFixture {
        let stored: [Item]
        let deleted: Item

        init() {
            stored = (0..<24).map { Item(name: "Stored \($0)", color: .red, status: .inStock(quantity: $0 + 1)) }
            deleted = Item(name: "Deleted", color: nil, status: .inStock(quantity: 1))
        }

        func store(on engine: Engine) throws -> TestStore {
            let test = try TestStore(engine)
            try test.store.items.insert(contentsOf: stored + [deleted])
            try test.store.items.delete(id: deleted.id)
            return test
        }

        static func line(id: UUID?, name: String, color: String = "null", quantity: Int = 1) -> String {
            let idField = id.map { "\"id\":\"\($0.lowercasedString)\"," } ?? ""
            return "{\(idField)\"name\":\"\(name)\",\"color\":\(color),\"status\":{\"case\":\"inStock\",\"quantity\":\(quantity)}}"
        }

        /// JSON Lines mixing every kind of problem, more of them than a rejection shows: stored
        /// ids, a deleted item's id, an id repeated in the file, colours Stockroom does not
        /// know, a blank line (counted, never a row), and good rows between them.
        var badLines: [String] {
            var lines = [
                Self.line(id: nil, name: "New A"),
                Self.line(id: stored[0].id, name: "Stored 0, again"),
                Self.line(id: nil, name: "Mauve A", color: "\"mauve\""),
                Self.line(id: deleted.id, name: "Deleted, back"),
                "",
                Self.line(id: nil, name: "New B"),
                Self.line(id: stored[0].id, name: "Stored 0, once more"),
            ]
            for index in 1..<stored.count {
                lines.append(Self.line(id: stored[index].id, name: "Stored \(index), renamed"))
                lines.append(Self.line(id: nil, name: "Mauve \(index)", color: "\"mauve\""))
            }
            return lines
        }
    }

    static func importing(_ path: String, onConflict: ItemImport.ConflictPolicy, dryRun: Bool,
                          into store: InventoryStore) throws -> ItemImport.Summary {
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0, "\(path) cannot be opened")
        defer { close(descriptor) }
        return try ItemImport(format: .jsonl, onConflict: onConflict, dryRun: dryRun).run(reading: descriptor, into: store)
    }

    /// The report of an import refused on `engine`, real or dry, checking that nothing changed.
    static func rejection(_ fixture: RulesFixture, _ lines: [String], on engine: Engine,
                          onConflict: ItemImport.ConflictPolicy, dryRun: Bool) throws -> ImportRejection {
        let test = try fixture.store(on: engine)
        let file = test.directory.path("rows.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let itemsBefore = try test.store.items.everyItem()
        let positionBefore = try test.store.items.lastEventPosition()
        let rejection = try #require(throws: ImportRejection.self) {
            try Self.importing(file, onConflict: onConflict, dryRun: dryRun, into: test.store)
        }
        #expect(Set(try test.store.items.everyItem()) == Set(itemsBefore))
        #expect(try test.store.items.lastEventPosition() == positionBefore)
        return rejection
    }

    @Test(arguments: [ItemImport.ConflictPolicy.fail, .skip, .replace])
    func theSameBadRowsGiveTheSameReportOnBothEnginesRealOrDry(_ policy: ItemImport.ConflictPolicy) throws {
        let fixture = RulesFixture()
        let lines = fixture.badLines
        var reports: [String: [String]] = [:]
        for engine in Engine.allCases {
            for dryRun in [false, true] {
                let rejection = try Self.rejection(fixture, lines, on: engine, onConflict: policy, dryRun: dryRun)
                reports["\(engine) \(dryRun ? "dry run" : "import")"] = rejection.reportLines
                #expect(rejection.problems.map(\.line) == rejection.problems.map(\.line).sorted(), "\(rejection.problems)")
                #expect(rejection.problems.count == min(rejection.total, ImportRejection.shownLimit))
            }
        }
        let first = try #require(reports["\(Engine.sqlite) import"])
        for (name, report) in reports { #expect(report == first, "\(name) differs from SQLite's import") }

        // What each policy refuses: the deleted item's id, the repeated id and the 24 unknown
        // colours always; under fail the 24 stored ids too (the repeat is named as a repeat).
        let stored = fixture.stored.map(\.id.lowercasedString)
        let expectedTotal = policy == .fail ? 50 : 26
        #expect(first.first == "\(expectedTotal) bad rows; nothing was imported")
        #expect(first.last == "… and \(expectedTotal - ImportRejection.shownLimit) more")
        #expect(first.contains("4: id \(fixture.deleted.id.lowercasedString) belonged to a deleted item, whose history is kept; leave the id out to add it as a new item"))
        #expect(first.contains("7: duplicate id \(stored[0]) (first on line 2)"))
        #expect(first.contains("2: id \(stored[0]) already exists (use --on-conflict skip or replace)") == (policy == .fail))
    }

    @Test(arguments: [ItemImport.ConflictPolicy.skip, .replace])
    func theSameRowsGiveTheSameSummaryOnBothEnginesRealOrDry(_ policy: ItemImport.ConflictPolicy) throws {
        let fixture = RulesFixture()
        let unchanged = fixture.stored[0], renamed = fixture.stored[1]
        let lines = [
            RulesFixture.line(id: unchanged.id, name: unchanged.name, color: "\"red\"", quantity: 1),
            RulesFixture.line(id: nil, name: "New"),
            RulesFixture.line(id: renamed.id, name: "Stored 1, renamed", color: "\"red\"", quantity: 2),
        ]
        var summaries: [ItemImport.Summary] = []
        for engine in Engine.allCases {
            for dryRun in [true, false] {
                let test = try fixture.store(on: engine)
                let file = test.directory.path("rows.jsonl")
                try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
                let summary = try Self.importing(file, onConflict: policy, dryRun: dryRun, into: test.store)
                #expect(summary.dryRun == dryRun)
                #expect(!summary.rebuiltIndexes)
                summaries.append(summary)
                let version = try test.store.items.version(id: renamed.id)
                #expect(version == (policy == .replace && !dryRun ? 2 : 1), "\(engine), dry run \(dryRun)")
                #expect(try test.store.items.version(id: unchanged.id) == 1, "an unchanged item gets no event")
            }
        }
        // Under skip both stored ids are skipped; under replace the unchanged one is skipped.
        let expected = policy == .skip ? (imported: 1, skipped: 2, replaced: 0) : (imported: 1, skipped: 1, replaced: 1)
        for summary in summaries {
            #expect(summary.rows == 3)
            #expect(summary.imported == expected.imported)
            #expect(summary.skipped == expected.skipped)
            #expect(summary.replaced == expected.replaced)
        }
    }
}
