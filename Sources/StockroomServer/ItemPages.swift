import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore

/// The pages of items: the list with filters, search and paging; an item with its history,
/// edit form and delete confirmation; the new-item form. Plain forms: no script needed.
struct ItemPages: Sendable {
    let items: ItemsAPI
    let drafts: DraftsAPI

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try await list(request) }
        router.get("/items/new") { _, _ in ItemPages.newItemPage(Item(name: ""), problem: nil) }
        router.post("/items") { request, _ in try await create(request) }
        router.get("/items/:id") { _, context in try await show(try context.parameters.require("id")) }
        router.post("/items/:id") { request, context in try await edit(request, id: try context.parameters.require("id")) }
        router.get("/items/:id/delete") { _, context in try await confirmDelete(try context.parameters.require("id")) }
        router.post("/items/:id/delete") { request, context in try await delete(request, id: try context.parameters.require("id")) }
        registerCounter(on: router)
    }

    // MARK: List

    private func list(_ request: Request) async throws -> Response {
        try await listPage(Form(request.uri.query))
    }

    /// The list `form` (the page's query) asks for, under `error` when a row's form was refused.
    func listPage(_ form: Form, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let query: ItemQuery
        do {
            query = try ItemsAPI.query(from: form)
        } catch let problem as Problem {
            return HTML.page("Items", HTML.message(problem.detail), status: problem.status)
        }
        let page = try await items.page(query, position: true)
        // One read for the sync's line: the open conflicts, and on a replica its own state.
        let (openConflicts, replica) = try await items.pool.read { store in
            try store.read { (try store.drafts.conflictCount(), try store.replicaStatus()) }
        }
        let statusChoices = [("", "any")] + ItemQuery.StatusFilter.allCases.map { ($0.text, $0.text) }
        let back = ItemPages.backQuery(form)
        var body = (error.map { HTML.message($0) } ?? "") + ConflictPages.syncState(openConflicts: openConflicts, replica: replica) + """
            <form class="filters" method="get" action="/" role="search">
            <div class="field"><label for="search">Search names</label>
            <input id="search" name="search" type="search" value="\(HTML.escape(form["search"] ?? ""))"></div>
            <div class="field"><label for="status">Status</label>
            <select id="status" name="status">\(HTML.options(statusChoices, selected: form["status"] ?? ""))</select></div>
            <div class="field"><label for="color">Colour</label>
            <select id="color" name="color">\(HTML.options([("", "any")] + Color.allCases.map { ($0.rawValue, $0.rawValue) }, selected: form["color"] ?? ""))</select></div>
            <div class="field"><label for="location">Location</label>
            <input id="location" name="location" value="\(HTML.escape(form["location"] ?? ""))" maxlength="\(ItemLocation.maximumLength)"></div>
            <button type="submit">Filter</button> <a href="/">Clear</a>
            </form>
            <div class="scroll"><table id="items-table">
            <caption class="visually-hidden">Items, ordered by name</caption>
            <thead><tr>\(ItemField.allCases.map { "<th scope=\"col\">\(HTML.escape($0.label))</th>" }.joined())<th scope="col">Version</th><th scope="col">Counter</th></tr></thead>
            <tbody id="items" data-position="\(page.position ?? 0)">
            """
        let escapedBack = HTML.escape(back)
        for (item, version) in page.items {
            body += ItemPages.listRow(item, version: version, escapedBack: escapedBack)
        }
        if page.items.isEmpty { body += "<tr><td colspan=\"\(ItemField.allCases.count + 2)\">No items match.</td></tr>" }
        body += "</tbody></table></div>"
        var links: [String] = []
        if query.after != nil { links.append("<a href=\"/?\(ItemPages.filterQuery(form))\">First page</a>") }
        if let next = page.next {
            links.append("<a href=\"/?\(ItemPages.filterQuery(form))\(form.pairs.isEmpty ? "" : "&")after=\(next)\" rel=\"next\">Next page</a>")
        }
        if !links.isEmpty { body += "<nav class=\"actions\" aria-label=\"Pages\">" + links.joined(separator: " ") + "</nav>" }
        return HTML.page("Items", body, status: status)
    }

    /// The filter parameters of a list URL, without the cursor.
    static func filterQuery(_ form: Form) -> String {
        ["search", "status", "color", "location", "limit"].compactMap { name in
            form.nonEmpty(name).map { "\(name)=\(Form.encode($0))" }
        }.joined(separator: "&")
    }

    // MARK: Add

    static func newItemPage(_ item: Item, problem: Problem?) -> Response {
        let body = (problem.map { HTML.message($0.detail) } ?? "") + """
            <form method="post" action="/items">
            \(HTML.itemFields(item))
            <div class="actions"><button type="submit">Add item</button> <a href="/">Back to the list</a></div>
            </form>
            """
        return HTML.page("Add an item", body, status: problem?.status ?? .ok)
    }

    /// The item a form describes (each field by its key; the status as its choice and the
    /// quantity), checked as `items add` checks.
    static func item(from form: Form, id: UUID = UUID.version7()) throws -> Item {
        let name = form["name"] ?? ""
        try ItemName.validate(name)
        let color: Color?
        if let text = form.nonEmpty("color") {
            guard let parsed = Color(rawValue: text) else { throw Problem(.badRequest, "unknown colour '\(RequestChecks.printable(text))'") }
            color = parsed
        } else {
            color = nil
        }
        let itemStatus = try ItemPages.status(from: form)
        let texts = try OptionalTextField.allCases.map { try $0.parse(form[$0.field.key] ?? "") }
        let item = Item.assembling(id: id, name: name, color: color, status: itemStatus) { texts[$0.rawValue] }
        try item.validate()
        return item
    }

    static func status(from form: Form) throws -> Status {
        let text = form["status"] ?? TagSpellings.choice(for: Item.defaultStatus).text
        guard let choice = ItemQuery.StatusFilter(text: text) else {
            throw Problem(.badRequest, "unknown status '\(RequestChecks.printable(text))'")
        }
        return try TagSpellings.status(for: choice) {
            let text = (form["quantity"] ?? "").trimmingWhitespace()
            guard let quantity = Int(text) else {
                throw Problem(.unprocessableContent, "the quantity must be a whole number of at least \(Status.minimumQuantity); for none in stock choose out of stock")
            }
            return quantity
        }
    }

    /// What a refused form held, as far as it can be read, to show it again.
    static func typed(_ form: Form, id: UUID = UUID.version7()) -> Item {
        Item.assembling(id: id, name: form["name"] ?? "", color: form["color"].flatMap(Color.init(rawValue:)),
                        status: (try? ItemPages.status(from: form)) ?? Item.defaultStatus) { optional in
            (try? optional.parse(form[optional.field.key] ?? "")) ?? nil
        }
    }

    /// The edit that makes any item `item`, every field but the id: what a whole form posted
    /// for an item (or a conflict's draft) asks for.
    static func replacement(by item: Item) -> ItemEdit {
        var edit = ItemEdit(name: item.name, color: item.color.map { .set($0) } ?? .remove, status: item.status)
        for optional in OptionalTextField.allCases { optional.set(optional.text(in: item), in: &edit) }
        return edit
    }

    static func form(_ request: Request, limit: Int) async throws -> Form {
        Form(try await RequestBody.text(request, limit: limit, accepting: ["application/x-www-form-urlencoded"]))
    }

    private func create(_ request: Request) async throws -> Response {
        let form = try await ItemPages.form(request, limit: items.configuration.jsonBodyLimit)
        let item: Item
        do {
            item = try ItemPages.item(from: form)
            try await items.insert(item)
        } catch {
            return ItemPages.newItemPage(ItemPages.typed(form), problem: Problem.from(error))
        }
        return HTML.redirect("/items/\(item.id.lowercasedString)")
    }

    // MARK: One item

    private func show(_ id: String, message: String? = nil) async throws -> Response {
        let item: Item, version: Int
        do {
            (item, version) = try await items.current(id)
        } catch StoreError.notFound {
            // Deleted items keep their history.
            guard let events = try? await items.historyEvents(id) else { throw StoreError.notFound(.item, id) }
            return HTML.page("Deleted item", HTML.message("This item was deleted; its history is kept.", isError: false)
                             + ItemPages.historyTable(events), status: .notFound)
        }
        let events = try await items.historyEvents(item.id.lowercasedString)
        return ItemPages.itemPage(item, version: version, events: events, message: message)
    }

    static func itemPage(_ item: Item, version: Int, events: [RecordedItemEvent], message: String?, error: String? = nil,
                         status: HTTPResponse.Status = .ok) -> Response {
        let id = item.id.lowercasedString
        let details = Presentation.details(for: item, version: version).map(HTML.escape).joined(separator: "\n")
        let body = (message.map { HTML.message($0, isError: false) } ?? "") + (error.map { HTML.message($0) } ?? "") + """
            <pre>\(details)</pre>
            <h2>Edit</h2>
            <form method="post" action="/items/\(id)">
            <input type="hidden" name="version" value="\(version)">
            \(HTML.itemFields(item))
            <div class="actions"><button type="submit">Save changes</button></div>
            </form>
            <div class="actions">
            <a href="/items/\(id)/delete">Delete this item…</a>
            <form method="post" action="/drafts"><input type="hidden" name="duplicate" value="\(id)"><button type="submit">Duplicate as a draft</button></form>
            </div>
            <h2>History</h2>
            \(historyTable(events))
            """
        return HTML.page(Presentation.displayName(item.name), body, status: status)
    }

    static func historyTable(_ events: [RecordedItemEvent]) -> String {
        var text = "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Version</th><th scope=\"col\">Time (UTC)</th><th scope=\"col\">Change</th></tr></thead><tbody>"
        for event in events {
            text += "<tr><td>\(event.version)</td><td>\(HTML.escape(event.recordedAt))</td><td>\(HTML.escape(Presentation.text(for: event)))</td></tr>"
        }
        return text + "</tbody></table></div>"
    }

    private func edit(_ request: Request, id: String) async throws -> Response {
        let form = try await ItemPages.form(request, limit: items.configuration.jsonBodyLimit)
        guard let version = form["version"].flatMap(Int.init) else {
            throw Problem(.badRequest, "the form has no version: reload the item's page")
        }
        let (stored, _) = try await items.current(id)
        let wanted: Item
        do {
            wanted = try ItemPages.item(from: form, id: stored.id)
        } catch {
            let problem = Problem.from(error)
            let events = try await items.historyEvents(id)
            return ItemPages.itemPage(stored, version: version, events: events, message: nil,
                                      error: problem.detail + "; nothing was changed", status: problem.status)
        }
        do {
            _ = try await items.update(id, with: ItemPages.replacement(by: wanted), ifVersion: version)
        } catch StoreError.versionConflict(_, let expected, let current) {
            let (now, _) = try await items.current(id)
            return ItemPages.conflictPage(mine: wanted, theirs: now, from: expected, to: current)
        }
        return HTML.redirect("/items/\(stored.id.lowercasedString)")
    }

    /// A stale edit: what the user sent beside what the item is now, field by field; the user
    /// chooses to apply theirs over the current version or to keep the current item.
    static func conflictPage(mine: Item, theirs: Item, from expected: Int, to current: Int) -> Response {
        let id = theirs.id.lowercasedString
        func row(_ label: String, _ yours: String, _ now: String) -> String {
            "<tr class=\"\(yours == now ? "" : "changed")\"><th scope=\"row\">\(label)</th><td>\(HTML.escape(yours))</td><td>\(HTML.escape(now))</td></tr>"
        }
        let body = HTML.message("This item was changed by someone else since you opened it (version \(expected), now version \(current)). Nothing was saved.") + """
            <div class="scroll"><table id="conflict"><thead><tr><th scope="col">Field</th><th scope="col">Your edit</th><th scope="col">Now (version \(current))</th></tr></thead><tbody>
            \(ItemField.allCases.map { field in
                field.kind == .name ? row(field.label, mine.name, theirs.name)
                    : row(field.label, Presentation.text(of: field, in: mine), Presentation.text(of: field, in: theirs))
            }.joined(separator: "\n"))
            </tbody></table></div>
            <h2>Decide</h2>
            <form method="post" action="/items/\(id)">
            <input type="hidden" name="version" value="\(current)">
            \(HTML.itemFields(mine))
            <div class="actions"><button type="submit">Save my edit over version \(current)</button>
            <a href="/items/\(id)">Keep version \(current) and discard my edit</a></div>
            </form>
            """
        return HTML.page("Edit conflict", body, status: .conflict)
    }

    // MARK: Delete

    private func confirmDelete(_ id: String) async throws -> Response {
        let (item, version) = try await items.current(id)
        let body = """
            <p>Delete <strong>\(HTML.escape(Presentation.displayName(item.name)))</strong> (\(HTML.escape(Presentation.text(for: item.status))))? Its history is kept.</p>
            <form method="post" action="/items/\(item.id.lowercasedString)/delete">
            <input type="hidden" name="version" value="\(version)">
            <div class="actions"><button type="submit">Delete</button> <a href="/items/\(item.id.lowercasedString)">Cancel</a></div>
            </form>
            """
        return HTML.page("Delete item?", body)
    }

    private func delete(_ request: Request, id: String) async throws -> Response {
        let form = try await ItemPages.form(request, limit: items.configuration.jsonBodyLimit)
        guard let version = form["version"].flatMap(Int.init) else {
            throw Problem(.badRequest, "the form has no version: reload the item's page")
        }
        do {
            try await items.delete(id, ifVersion: version)
        } catch StoreError.versionConflict(_, _, let current) {
            return HTML.page("Not deleted", HTML.message("The item changed since you opened it (now version \(current)); it was not deleted.")
                             + "<p><a href=\"/items/\(HTML.escape(id))\">See it as it is now</a></p>", status: .conflict)
        }
        return HTML.redirect("/")
    }
}
