import Foundation
import Hummingbird
import HummingbirdTesting
import Inventory
@testable import StockroomServer
import StockroomStore
import StockroomTestSupport
import Testing

/// The conflicts' pages without a browser, on both engines: the list page's count, the
/// conflicts list, a conflict's page, and its three forms posted as a browser without
/// JavaScript would; the live count's stream; a replica's own state on its list page.
@Suite("Conflict pages") struct ConflictPagesTests {
    static let form = PagesTests.form
    static let madeAt = "2026-11-28T10:00:00.000Z"

    /// An item on the hub whose colour a replica changed from green to red while the hub
    /// changed it to blue: an overtaken set, the replica wanting red.
    static func overtaken(_ store: InventoryStore, name: String = "Keyboard", origin: UUID = UUID.version7()) throws -> (Item, Conflict) {
        let hub = Item(name: name, color: .blue, status: .inStock(quantity: 5))
        try store.items.insert(hub)
        let copy = Item.assembling(id: hub.id, name: name, color: .green, status: .inStock(quantity: 5)) { _ in nil }
        let wanted = Item.assembling(id: hub.id, name: name, color: .red, status: .inStock(quantity: 5)) { _ in nil }
        let conflict = Conflict(id: UUID.version7(), itemID: hub.id, hubItem: hub, replicaCopy: copy, origin: origin,
                                madeAt: madeAt, reason: .overtaken(try #require(ItemChanges(from: copy, to: wanted))))
        _ = try store.write { try store.drafts.open(conflict) }
        return (hub, conflict)
    }

    @Test("the list page counts the open conflicts with a link; the conflicts page lists them, escaped", arguments: Engine.allCases)
    func countAndList(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        try await fixture.test { client in
            let none = try await client.send(.get, "/")
            #expect(none.text.contains("data-conflicts=\"0\"") && !none.text.contains("conflicts-link"), "\(none.text)")
            #expect(!none.text.contains("replica-state"), "not a replica: nothing about pushing")
            #expect(try await client.send(.get, "/conflicts").text.contains("No open conflicts."))
        }
        let (_, first) = try ConflictPagesTests.overtaken(store, name: "<b>Mug & \"cup\"</b>")
        _ = try ConflictPagesTests.overtaken(store, name: "Lamp")
        try await fixture.test { client in
            let list = try await client.send(.get, "/")
            #expect(list.text.contains("<strong id=\"conflict-count\">2</strong> open conflicts to resolve"), "\(list.text)")
            #expect(list.text.contains("href=\"/conflicts\"") && list.text.contains("data-conflicts=\"2\""))
            let conflicts = try await client.send(.get, "/conflicts")
            #expect(conflicts.status == .ok)
            #expect(conflicts.text.contains("href=\"/conflicts/\(first.id.lowercasedString)\">Resolve &lt;b&gt;Mug &amp; &quot;cup&quot;&lt;/b&gt;</a>"), "\(conflicts.text)")
            #expect(!conflicts.text.contains("<b>Mug"), "a name is never markup")
            #expect(conflicts.text.contains(">Resolve Lamp<") && conflicts.text.contains(">overtaken<"))
            let page = try await client.send(.get, "/conflicts/\(first.id.lowercasedString)")
            #expect(page.status == .ok && !page.text.contains("<b>Mug"))
            #expect(page.text.contains("<title>Conflict: &lt;b&gt;Mug &amp; &quot;cup&quot;&lt;/b&gt; · Stockroom</title>"))
        }
    }

    @Test("a conflict's page: the hub's value and the replica's side by side, the replica, when, how many are missing; three forms", arguments: Engine.allCases)
    func page(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let origin = UUID.version7()
        let (_, overtaken) = try ConflictPagesTests.overtaken(store, origin: origin)
        let hub = Item(name: "Cable", color: .red, status: .outOfStock(isOnBackOrder: false))
        try store.items.insert(hub)
        let oversold = Conflict(id: UUID.version7(), itemID: hub.id, hubItem: hub, replicaCopy: hub, origin: origin,
                                madeAt: ConflictPagesTests.madeAt, reason: .oversold(adjustment: -3, missing: 2))
        _ = try store.write { try store.drafts.open(oversold) }
        try await fixture.test { client in
            let page = try await client.send(.get, "/conflicts/\(overtaken.id.lowercasedString)")
            #expect(page.status == .ok)
            let sides = try #require(page.text.components(separatedBy: "<table id=\"conflict-sides\"").last)
            #expect(sides.contains("<th scope=\"col\">The hub&#39;s value</th><th scope=\"col\">The value the replica wanted</th>"), "\(sides)")
            #expect(sides.contains("<tr class=\"changed\"><th scope=\"row\">Colour</th><td>blue</td><td>red</td></tr>"), "\(sides)")
            #expect(sides.contains("<tr class=\"\"><th scope=\"row\">Name</th><td>Keyboard</td><td>Keyboard</td></tr>"), "\(sides)")
            #expect(page.text.contains("<dt>Replica</dt><dd>\(origin.lowercasedString)</dd>"))
            #expect(page.text.contains("<dt>Changed there at</dt><dd>\(ConflictPagesTests.madeAt) (by the replica&#39;s clock)</dd>"))
            #expect(!page.text.contains("<dt>Missing</dt>"))
            let id = overtaken.id.lowercasedString
            for action in ["keep", "take", "save"] {
                #expect(page.text.contains("<form method=\"post\" action=\"/conflicts/\(id)/\(action)\">"), "\(action)")
            }
            // The edit form starts as the draft: the replica's value on top of the hub's.
            #expect(page.text.contains("<option value=\"red\" selected>red</option>"), "\(page.text)")
            let short = try await client.send(.get, "/conflicts/\(oversold.id.lowercasedString.prefix(28))")
            #expect(short.status == .ok, "a prefix names it too")
            #expect(short.text.contains("<dt>Missing</dt><dd>2 units</dd>"), "\(short.text)")
            #expect(short.text.contains("oversold, 2 missing"))
        }
    }

    @Test("keep, take and edit-then-save resolve through the store, then 303 to the list with a message", arguments: Engine.allCases)
    func resolving(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let (kept, keep) = try ConflictPagesTests.overtaken(store, name: "Kept")
        let (taken, take) = try ConflictPagesTests.overtaken(store, name: "Taken")
        let (edited, edit) = try ConflictPagesTests.overtaken(store, name: "Edited")
        let gone = Item(name: "Gone", status: .inStock(quantity: 1))
        try store.items.insert(gone)
        let delete = Conflict(id: UUID.version7(), itemID: gone.id, hubItem: gone, replicaCopy: gone, origin: UUID.version7(),
                              madeAt: ConflictPagesTests.madeAt, reason: .changedBeforeDelete)
        _ = try store.write { try store.drafts.open(delete) }
        try await fixture.test { client in
            let page = try await client.send(.get, "/conflicts/\(delete.id.lowercasedString)")
            #expect(page.text.contains("Take the replica&#39;s: delete the item"), "\(page.text)")
            #expect(page.text.contains("The replica wanted it deleted"))

            let keeping = try await client.send(.post, "/conflicts/\(keep.id.lowercasedString)/keep", json: "", type: ConflictPagesTests.form)
            #expect(keeping.status == .seeOther && keeping.headers[.location] == "/conflicts?resolved=keep")
            #expect(try await client.send(.get, "/conflicts?resolved=keep").text.contains("Resolved: the hub&#39;s value was kept."))
            let took = try await client.send(.post, "/conflicts/\(take.id.lowercasedString)/take", json: "", type: ConflictPagesTests.form)
            #expect(took.status == .seeOther && took.headers[.location] == "/conflicts?resolved=take")
            let saved = try await client.send(.post, "/conflicts/\(edit.id.lowercasedString)/save",
                                              json: "name=Edited+by+hand&color=yellow&status=in-stock&quantity=9", type: ConflictPagesTests.form)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/conflicts?resolved=save")
            let deleted = try await client.send(.post, "/conflicts/\(delete.id.lowercasedString)/take", json: "", type: ConflictPagesTests.form)
            #expect(deleted.status == .seeOther)
            #expect(try await client.send(.get, "/").text.contains("data-conflicts=\"0\""))
        }
        #expect(try store.drafts.openConflicts().isEmpty)
        #expect(try store.items.item(id: kept.id).color == .blue, "the hub's value kept")
        #expect(try store.items.item(id: taken.id).color == .red, "the replica's value taken")
        let hand = try store.items.item(id: edited.id)
        #expect(hand.name == "Edited by hand" && hand.color == .yellow && hand.status == .inStock(quantity: 9))
        #expect(throws: StoreError.self) { try store.items.item(id: gone.id) }
    }

    @Test("a refused edit shows the page again with the reason and changes nothing; a resolved or unknown conflict is a clear 404 page", arguments: Engine.allCases)
    func refusals(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let (hub, conflict) = try ConflictPagesTests.overtaken(store)
        let id = conflict.id.lowercasedString
        try await fixture.test { client in
            let blank = try await client.send(.post, "/conflicts/\(id)/save", json: "name=+&color=red&status=in-stock&quantity=1",
                                              type: ConflictPagesTests.form)
            #expect(blank.status == .unprocessableContent && blank.headers[.contentType] == "text/html; charset=utf-8")
            #expect(blank.text.contains(HTML.escape(InventoryError.blankName.description) + "; nothing was changed"), "\(blank.text)")
            #expect(blank.text.contains("action=\"/conflicts/\(id)/save\""), "the form again")
            let colour = try await client.send(.post, "/conflicts/\(id)/save", json: "name=A&color=%3Cpurple%3E&status=in-stock&quantity=1",
                                               type: ConflictPagesTests.form)
            #expect(colour.status == .badRequest && colour.text.contains("unknown colour &#39;&lt;purple&gt;&#39;"), "\(colour.text)")
            #expect(try await client.send(.post, "/conflicts/\(id)/save", json: "{}", type: "application/json").status == .unsupportedMediaType)
            // Resolved elsewhere meanwhile (here, by the CLI's `draft cancel`): a clear page.
            try fixture.store().drafts.cancel(id: conflict.id)
            for action in ["keep", "take", "save"] {
                let late = try await client.send(.post, "/conflicts/\(id)/\(action)", json: "name=A&status=in-stock&quantity=1",
                                                 type: ConflictPagesTests.form)
                #expect(late.status == .notFound && late.headers[.contentType] == "text/html; charset=utf-8", "\(action)")
                #expect(late.text.contains("no open conflict &#39;\(id)&#39;: it was resolved already, or never opened"), "\(late.text)")
            }
            #expect(try await client.send(.get, "/conflicts/\(id)").status == .notFound)
            let bogus = try await client.send(.get, "/conflicts/%3Cscript%3E")
            #expect(bogus.status == .badRequest || bogus.status == .notFound, "\(bogus.status)")
            #expect(!bogus.text.contains("<script>"))
            // A draft that is not a conflict's is not one.
            let draft = try fixture.store().drafts.startAdding(ItemEdit(name: "Mouse"))
            #expect(try await client.send(.get, "/conflicts/\(draft.id.lowercasedString)").status == .notFound)
        }
        #expect(try store.items.item(id: hub.id) == hub, "nothing was changed")
    }

    @Test("the event stream's broadcast wakes for a conflict opened or closed without an item's change", arguments: Engine.allCases)
    func broadcastHearsConflicts(engine: Engine) async throws {
        let fixture = try await ServerFixture(engine)
        let store = try fixture.store()
        let hub = Item(name: "Keyboard", status: .outOfStock(isOnBackOrder: false))
        try store.items.insert(hub)
        let commits = fixture.server.commits
        // The broadcast's first value is read once it starts, after the insert: from then on
        // only a change of what it observes makes a new generation.
        _ = commits.generation
        #expect(await commits.waitForCommit(after: 0))
        var generation = commits.generation
        let position = try store.items.lastEventPosition()
        // An oversold item already out of stock: the conflict opens, the item does not change.
        let conflict = Conflict(id: UUID.version7(), itemID: hub.id, hubItem: hub, replicaCopy: hub, origin: UUID.version7(),
                                madeAt: ConflictPagesTests.madeAt, reason: .oversold(adjustment: -1, missing: 1))
        _ = try store.write { try store.drafts.open(conflict) }
        #expect(await EventsAPI.wait(for: commits, after: generation, atMost: .seconds(30)) == .commit)
        generation = commits.generation
        // Kept: closed, still no item's change.
        try store.drafts.cancel(id: conflict.id)
        #expect(await EventsAPI.wait(for: commits, after: generation, atMost: .seconds(30)) == .commit)
        #expect(try store.items.lastEventPosition() == position, "no history was written: the conflicts alone woke it")
        try await fixture.test { client in
            let refused = try await client.send(.get, "/api/events?include=everything")
            #expect(refused.status == .badRequest && refused.text.contains("include must be 'conflicts'"))
        }
    }

    @Test("a replica's own list page shows the changes waiting to be pushed and the last sync; a hub's does not")
    func replicaState() async throws {
        let fixture = try await ServerFixture(.sqlite)
        guard case .file(let path) = fixture.location else { return }
        let hubPath = fixture.directory.path("hub.sqlite")
        _ = try InventoryStore(path: hubPath)
        try await fixture.test { client in
            let list = try await client.send(.get, "/")
            #expect(!list.text.contains("replica-state"), "not a replica yet")
        }
        _ = try ReplicaSync.run(path: path, hub: .database(.file(hubPath)), busyTimeoutMilliseconds: 5_000)
        let lastSync = try #require(try ReplicaSync.status(path: path).lastSync)
        try fixture.store().items.insert(Item(name: "Sold at the stall"))
        try await fixture.test { client in
            let list = try await client.send(.get, "/")
            #expect(list.text.contains("<strong id=\"pending-count\">1</strong> change waits to be pushed; last successful sync: <span id=\"last-sync\">\(lastSync)</span>"),
                    "\(list.text)")
        }
        let hub = try await StorePool.open(.file(hubPath))
        defer { hub.close() }
        let hubServer = StockroomServer(configuration: ServerConfiguration(port: 80), pool: hub)
        try await hubServer.application().test(.router) { client in
            let list = try await client.send(.get, "/")
            #expect(!list.text.contains("replica-state"), "a hub is no replica")
        }
    }
}
