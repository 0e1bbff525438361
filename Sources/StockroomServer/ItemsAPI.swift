import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore
import TextFormats

/// `/api/items`: the items, as `items list/show/add/update/delete/history` give them.
struct ItemsAPI: Sendable {
    let pool: StorePool
    let configuration: ServerConfiguration

    static let defaultLimit = 50
    static let maximumLimit = 1000

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/items") { request, _ in try await list(request) }
        router.post("/api/items") { request, _ in try await create(request) }
        router.get("/api/items/:id") { request, context in try await show(request, id: try context.parameters.require("id")) }
        router.patch("/api/items/:id") { request, context in try await update(request, id: try context.parameters.require("id")) }
        router.delete("/api/items/:id") { request, context in try await delete(request, id: try context.parameters.require("id")) }
        router.get("/api/items/:id/history") { _, context in try await history(id: try context.parameters.require("id")) }
        registerAdjustments(on: router)
    }

    // MARK: List

    /// A page of the list: the items with their versions and the cursor of the next page.
    struct Page: Sendable {
        var items: [(item: Item, version: Int)]
        var next: String?
        /// The position of the last event the page's snapshot holds, when asked for: a live
        /// page refreshes on any event after it.
        var position: Int64?
    }

    /// The query of `?status=&color=&search=&location=&limit=&after=`, checked.
    static func query(from request: Request) throws -> ItemQuery {
        try query(from: Form(request.uri.query))
    }

    /// The query of a list's parameters (a URL's query, a form's `back` field), checked.
    static func query(from parameters: Form) throws -> ItemQuery {
        var query = ItemQuery(limit: defaultLimit)
        if let text = parameters["status"], !text.isEmpty {
            guard let status = ItemQuery.StatusFilter(text: text) else {
                throw Problem(.badRequest, "status must be one of \(TagSpellings.statusFilters.joined(separator: ", "))")
            }
            query.status = status
        }
        if let text = parameters["color"], !text.isEmpty {
            guard let color = Color(rawValue: text) else {
                throw Problem(.badRequest, "color must be one of \(Color.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.color = color
        }
        if let text = parameters["search"], !text.isEmpty { query.nameContains = text }
        if let text = parameters["location"] {
            do {
                query.location = try ItemLocation.parse(text)
            } catch {
                throw Problem(.badRequest, "location: \(error)")
            }
        }
        if let text = parameters["limit"] {
            guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
                throw Problem(.badRequest, "limit must be a whole number from 1 to \(maximumLimit)")
            }
            query.limit = limit
        }
        if let text = parameters["after"], !text.isEmpty {
            guard let position = Cursor.position(text) else {
                throw Problem(.badRequest, "the after cursor is not one this server gave; start from the first page")
            }
            query.after = position
        }
        return query
    }

    /// One page, read in one snapshot: one more item than the limit tells whether there is a next page.
    /// With `position`, the snapshot's last event position too, read in the same snapshot (one
    /// trip to the pool, and no event can fall between the two).
    func page(_ query: ItemQuery, position: Bool = false) async throws -> Page {
        try await pool.read { store in
            try store.read {
                let lastPosition = position ? try store.items.lastEventPosition() : nil
                let limit = query.limit ?? ItemsAPI.defaultLimit
                var asked = query
                asked.limit = limit + 1
                var found = try store.items.list(matching: asked)
                let hasMore = found.count > limit
                if hasMore { found.removeLast() }
                let items = try found.map { ($0, try store.items.version(id: $0.id)) }
                let next = hasMore ? found.last.map { Cursor.text(ItemQuery.Position(name: $0.name, id: $0.id)) } : nil
                return Page(items: items, next: next, position: lastPosition)
            }
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let query = try ItemsAPI.query(from: request)
        let page = try await page(query)
        var body = "{\"items\":["
        for (index, entry) in page.items.enumerated() {
            if index > 0 { body += "," }
            body += JSONPresentation.object(for: entry.item, version: entry.version)
        }
        body += "],\"next\":" + JSONText.string(page.next) + "}\n"
        var headers: HTTPFields = [.contentType: "application/json"]
        if let next = page.next {
            headers[.link] = "<\(ItemsAPI.pageURL(request, after: next))>; rel=\"next\""
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The request's URL with `after` set to `cursor`, other parameters kept.
    static func pageURL(_ request: Request, after cursor: String) -> String {
        var parts = (request.uri.query ?? "").split(separator: "&").filter { !$0.hasPrefix("after=") && !$0.hasPrefix("token=") }.map(String.init)
        parts.append("after=" + cursor)
        return request.uri.path + "?" + parts.joined(separator: "&")
    }

    // MARK: One item

    private func create(_ request: Request) async throws -> Response {
        let text = try await RequestBody.json(request, limit: configuration.jsonBodyLimit)
        // Without a status, as `items add` without one.
        let item = try ItemImport.item(fromJSONObject: text.trimmingWhitespaceAndNewlines(), defaultStatus: Item.defaultStatus)
        try await insert(item)
        return ItemsAPI.itemResponse(item, version: 1, status: .created,
                                     extra: [.location: "/api/items/\(item.id.lowercasedString)"])
    }

    /// Adds `item`; an id already taken is refused with 409.
    func insert(_ item: Item) async throws {
        try await pool.groupedWrite { store in
            if (try? store.items.item(id: item.id)) != nil {
                throw Problem(.conflict, "an item with id '\(item.id.lowercasedString)' already exists")
            }
            try store.items.insert(item)
        }
    }

    /// The item and its version, in one snapshot.
    func current(_ text: String) async throws -> (item: Item, version: Int) {
        try await pool.read { store in
            try store.read {
                let id = try store.items.resolveID(text)
                return (try store.items.item(id: id), try store.items.version(id: id))
            }
        }
    }

    private func show(_ request: Request, id: String) async throws -> Response {
        let (item, version) = try await current(id)
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { ETag.version(String($0)) == version || $0.trimmingWhitespace() == "*" }) {
            return Response(status: .notModified, headers: [.eTag: ETag.text(version)])
        }
        return ItemsAPI.itemResponse(item, version: version)
    }

    /// The version `If-Match` names: 428 when missing, 400 when unreadable.
    static func requiredVersion(_ request: Request) throws -> Int {
        guard let value = request.headers[.ifMatch] else {
            throw Problem(.preconditionRequired, "If-Match is required: send the ETag of the item as last read, so that no one else's change is overwritten")
        }
        guard let version = ETag.version(value) else {
            throw Problem(.badRequest, "If-Match must be one ETag as the server gave it, e.g. \"3\"")
        }
        return version
    }

    private func update(_ request: Request, id: String) async throws -> Response {
        let version = try ItemsAPI.requiredVersion(request)
        let text = try await RequestBody.text(request, limit: configuration.jsonBodyLimit,
                                              accepting: ["application/merge-patch+json", "application/json"])
        let edit = try RequestBody.edit(fromJSON: text)
        let (item, newVersion) = try await update(id, with: edit, ifVersion: version)
        return ItemsAPI.itemResponse(item, version: newVersion)
    }

    /// Applies `edit` while the item is at `version`; returns it with its new version.
    func update(_ text: String, with edit: ItemEdit, ifVersion version: Int) async throws -> (Item, Int) {
        try await pool.groupedWrite { store in
            let id = try store.items.resolveID(text)
            let updated = try store.items.update(id: id, with: edit, ifVersion: version)
            return (updated, try store.items.version(id: id))
        }
    }

    private func delete(_ request: Request, id: String) async throws -> Response {
        let version = try ItemsAPI.requiredVersion(request)
        try await delete(id, ifVersion: version)
        return Response(status: .noContent)
    }

    /// Deletes the item while it is at `version`. The empty update first checks the version
    /// and, on a server, locks the row, so no change slips in between.
    func delete(_ text: String, ifVersion version: Int) async throws {
        try await pool.groupedWrite { store in
            let id = try store.items.resolveID(text)
            _ = try store.items.update(id: id, with: ItemEdit(), ifVersion: version)
            try store.items.delete(id: id)
        }
    }

    func historyEvents(_ text: String) async throws -> [RecordedItemEvent] {
        try await pool.read { store in
            try store.read { try store.items.history(id: try store.items.resolveHistoryID(text)) }
        }
    }

    private func history(id: String) async throws -> Response {
        let events = try await historyEvents(id)
        return ItemsAPI.json(JSONText.array(events.map(JSONPresentation.object(for:))))
    }

    // MARK: Responses

    static func itemResponse(_ item: Item, version: Int, status: HTTPResponse.Status = .ok, extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/json"
        headers[.eTag] = ETag.text(version)
        return Response(status: status, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: JSONPresentation.object(for: item, version: version) + "\n")))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// The `after` cursor: an item's place in the list's order (id and name), base64url so that it
/// is opaque and safe in a URL.
enum Cursor {
    static func text(_ position: ItemQuery.Position) -> String {
        let raw = position.id.lowercasedString + ":" + position.name
        return Data(raw.utf8).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    static func position(_ text: String) -> ItemQuery.Position? {
        var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let raw = String(data: data, encoding: .utf8),
              raw.count > 37, let id = UUID(uuidString: String(raw.prefix(36))),
              raw.dropFirst(36).first == ":" else { return nil }
        return ItemQuery.Position(name: String(raw.dropFirst(37)), id: id)
    }
}
