import DraftFlow
import Foundation
import Inventory
import StockroomStore
import Testing

/// Every `Status` tag through every path that reads or writes a status: the codec on both
/// engines, CSV and JSON Lines export and import, the list filter, the presentation and the
/// wizard. A new case added to `Status` and `StatusCodec.Tag` fails here (or, through the
/// exhaustive switches below, does not compile) until every path knows it; see
/// docs/adding-a-status.md. The web front's path is StatusTagServerPathTests (ServerTests).
@Suite struct StatusTagPathTests {
    /// Every tag, with the statuses of it worth storing (each associated value's edges).
    static let statusesByTag: [(tag: StatusCodec.Tag, statuses: [Status])] = StatusCodec.Tag.allCases.map { tag in
        // Exhaustive: a new tag must say which of its values the paths are walked with.
        let statuses: [Status] = switch tag {
        case .inStock: [.inStock(quantity: Status.minimumQuantity), .inStock(quantity: 100), .inStock(quantity: Int.max)]
        case .outOfStock: [.outOfStock(isOnBackOrder: false), .outOfStock(isOnBackOrder: true)]
        }
        return (tag, statuses)
    }

    static var allStatuses: [Status] { statusesByTag.flatMap(\.statuses) }

    /// The list filter that selects exactly the items of `tag`.
    static func filter(for tag: StatusCodec.Tag) -> ItemQuery.StatusFilter {
        switch tag {
        case .inStock: .inStock
        case .outOfStock: .outOfStock
        }
    }

    /// One item per status, named after its position so that list order is known.
    static func items() -> [Item] {
        allStatuses.enumerated().map { index, status in
            Item(name: "Item \(index)", color: nil, status: status)
        }
    }

    @Test func theWalkedStatusesCoverEveryTagAndTheCodecsExample() {
        #expect(Self.statusesByTag.map(\.tag) == StatusCodec.Tag.allCases)
        for (tag, statuses) in Self.statusesByTag {
            #expect(!statuses.isEmpty)
            #expect(statuses.allSatisfy { StatusCodec.tag(of: $0) == tag }, "\(tag)")
            #expect(StatusCodec.tag(of: StatusCodec.example(of: tag)) == tag)
            #expect((try? StatusCodec.example(of: tag).validate()) != nil)
        }
        let texts = StatusCodec.Tag.allCases.map { StatusCodec.text(for: $0).description }
        #expect(Set(texts).count == texts.count, "two tags share a stored text: \(texts)")
    }

    @Test(arguments: Engine.allCases)
    func everyTagRoundTripsThroughTheCodecAndIsStoredAsItsText(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let items = Self.items()
        try test.store.items.insert(contentsOf: items)
        for item in items {
            #expect(try test.store.items.item(id: item.id) == item)
        }
        let stored = try test.shell("SELECT name, status FROM items ORDER BY name;")
        #expect(stored.lines == items.map { "\($0.name)|\(StatusCodec.text(for: StatusCodec.tag(of: $0.status)))" })
    }

    @Test(arguments: Engine.allCases)
    func theListFilterOfEveryTagFindsExactlyItsItems(_ engine: Engine) throws {
        let test = try TestStore(engine)
        let items = Self.items()
        try test.store.items.insert(contentsOf: items)
        var found: [Item] = []
        for tag in StatusCodec.Tag.allCases {
            let listed = try test.store.items.list(matching: ItemQuery(status: Self.filter(for: tag)))
            #expect(listed == items.filter { StatusCodec.tag(of: $0.status) == tag }, "\(tag)")
            found += listed
        }
        // Every item is found under exactly one tag's filter.
        #expect(found.count == items.count)
        #expect(Set(found) == Set(items))
    }

    @Test(arguments: Engine.allCases, [TransferFormat.csv, .jsonl])
    func everyTagIsExportedAndImportedBack(_ engine: Engine, _ format: TransferFormat) throws {
        let source = try TestStore(engine)
        let items = Self.items()
        try source.store.items.insert(contentsOf: items)
        let file = source.directory.path("items.\(format.rawValue)")
        #expect(try ItemExport.write(format, from: source.store, toFile: file) == items.count)

        let exported = try String(contentsOfFile: file, encoding: .utf8)
        for status in Self.allStatuses {
            let spelled = switch format {
            case .csv: StatusCodec.columnTexts(for: status).joined(separator: ",")
            case .jsonl, .json: JSONPresentation.object(for: status)
            }
            #expect(exported.contains(spelled), "\(format) export lacks \(spelled)")
        }

        let target = try TestStore(engine)
        let descriptor = open(file, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let summary = try ItemImport(format: format).run(reading: descriptor, into: target.store)
        #expect(summary.imported == items.count)
        #expect(try target.store.items.list() == items)
    }

    @Test func everyStatusReadsDifferentlyToAPerson() {
        let statuses = Self.allStatuses.filter {
            // The quantity is shown as it is; two quantities of one tag differ by their number only.
            if case .inStock(let quantity) = $0 { return quantity == Status.minimumQuantity }
            return true
        }
        let texts = statuses.map(Presentation.text(for:))
        #expect(Set(texts).count == texts.count, "\(texts)")
        for status in statuses {
            let item = Item(name: "Widget", color: nil, status: status)
            #expect(Presentation.row(for: item).hasSuffix(Presentation.text(for: status)))
            #expect(!Presentation.text(for: status).isEmpty)
        }
        let json = Self.allStatuses.map(JSONPresentation.object(for:))
        #expect(Set(json).count == json.count, "\(json)")
    }

    /// The lines that take the wizard from any draft to `status`, after the name and colour
    /// (kept with Enter), ending on the review.
    static func wizardLines(to status: Status) -> [String] {
        switch status {
        case .inStock(let quantity): ["y", String(quantity)]
        case .outOfStock(let isOnBackOrder): ["n", isOnBackOrder ? "y" : "n"]
        }
    }

    /// The stock question the wizard asks after "in stock?" for `tag`.
    static func stockQuestion(for tag: StatusCodec.Tag) -> WizardStep.Kind {
        switch tag {
        case .inStock: .quantity
        case .outOfStock: .backOrder
        }
    }

    @Test(arguments: StatusCodec.Tag.allCases)
    func theWizardReachesAndKeepsEveryTag(_ tag: StatusCodec.Tag) throws {
        let statuses = try #require(Self.statusesByTag.first { $0.tag == tag }).statuses
        for status in statuses {
            for start in Self.allStatuses {
                var wizard = DraftWizard(entry: IdentifiedDraft(draft: .adding(Item(name: "Widget", status: start))))
                var kinds = [wizard.step.kind]
                for line in ["", "", ""] + Self.wizardLines(to: status) {
                    guard case .next(let next, _) = wizard.answering(line) else {
                        Issue.record("\(line) was not taken on the way from \(start) to \(status)")
                        return
                    }
                    wizard = next
                    kinds.append(wizard.step.kind)
                }
                #expect(wizard.step.kind == .review, "from \(start) to \(status)")
                #expect(wizard.entry.draft.item.status == status, "from \(start) to \(status)")
                #expect(kinds == [.name, .color, .location, .inStock, Self.stockQuestion(for: tag), .review], "from \(start) to \(status)")
            }
            // Resumed with this status, Enter keeps it.
            var wizard = DraftWizard(entry: IdentifiedDraft(draft: .adding(Item(name: "Widget", status: status))))
            while wizard.step.kind != .review {
                guard case .next(let next, _) = wizard.answering("") else {
                    Issue.record("Enter was not taken at \(wizard.step.kind) for \(status)")
                    return
                }
                wizard = next
            }
            #expect(wizard.entry.draft.item.status == status)
        }
    }
}
