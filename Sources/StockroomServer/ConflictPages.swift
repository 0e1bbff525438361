import FoundationEssentials
import Hummingbird
import Inventory
import StockroomStore

/// The conflicts a sync opened (docs/replicas.md), where people are: their list, and each
/// one's page with the hub's value and the replica's side by side and the three ways out as
/// plain forms. Every action is the store's own resolution (`draft save` or `draft cancel` of
/// the conflict's `resolving` draft, ``DraftRepository``): the rules live there, not here.
struct ConflictPages: Sendable {
    let drafts: DraftsAPI

    /// A way to resolve a conflict, as its form posts it.
    enum Action: String, CaseIterable, Sendable {
        /// Keep the hub's value: cancel the draft.
        case keep
        /// Take the replica's value: save the draft as the replica wanted it (a delete when
        /// it wanted the item deleted).
        case take
        /// Save the person's own edit as the resolution.
        case save

        /// What the conflicts list says once it is done.
        var notice: String {
            switch self {
            case .keep: "Resolved: the hub's value was kept."
            case .take: "Resolved: the replica's value was taken."
            case .save: "Resolved: your edit was saved."
            }
        }
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/conflicts") { request, _ in try await list(done: Action(rawValue: Form(request.uri.query)["resolved"] ?? "")) }
        router.get("/conflicts/:id") { _, context in try await show(try context.parameters.require("id")) }
        for action in Action.allCases {
            router.post("/conflicts/:id/\(action.rawValue)") { request, context in
                try await resolve(request, id: try context.parameters.require("id"), action: action)
            }
        }
    }

    // MARK: The list

    private func list(done: Action?) async throws -> Response {
        let all = try await drafts.pool.read { store in try store.drafts.openConflicts() }
        var body = done.map { HTML.message($0.notice, isError: false) } ?? ""
        body += all.isEmpty ? "<p id=\"no-conflicts\">No open conflicts.</p>" : ConflictPages.table(all)
        return HTML.page("Conflicts", body)
    }

    /// The open conflicts (`resolving` drafts), when there are any: why, the hub's item and
    /// the replica's wanted one, the replica and when it made the change, each with a link to
    /// its page.
    static func table(_ entries: [IdentifiedDraft]) -> String {
        let conflicts = entries.compactMap { entry in entry.draft.openConflict.map { (entry.id, $0) } }
        guard !conflicts.isEmpty else { return "" }
        var body = """
            <div class="scroll"><table><thead><tr><th scope="col">Conflict</th><th scope="col">Why</th><th scope="col">Hub</th><th scope="col">Wanted</th><th scope="col">Replica</th><th scope="col">Made at</th></tr></thead><tbody id="conflicts">
            """
        for (id, conflict) in conflicts {
            body += "<tr><td><a href=\"/conflicts/\(id.lowercasedString)\">Resolve \(HTML.escape(Presentation.displayName(conflict.shown.name)))</a></td>"
            body += "<td title=\"\(HTML.escape(Presentation.explanation(of: conflict)))\">\(HTML.escape(Presentation.summary(of: conflict)))</td>"
            body += "<td>\(HTML.escape(Presentation.hubText(of: conflict)))</td><td>\(HTML.escape(Presentation.wantedText(of: conflict)))</td>"
            body += "<td>\(HTML.escape(Presentation.shortID(conflict.origin)))</td><td>\(HTML.escape(conflict.madeAt))</td></tr>"
        }
        return body + "</tbody></table></div>"
    }

    // MARK: One conflict

    private func show(_ text: String) async throws -> Response {
        do {
            let entry = try await drafts.pool.read { store in try ConflictPages.openConflict(text, in: store) }
            return ConflictPages.page(entry)
        } catch {
            let problem = Problem.from(error)
            return ConflictPages.refusal(problem, title: problem.status == .notFound ? "Conflict not open" : "No such conflict")
        }
    }

    /// The open conflict `text` names (its id, or a unique prefix of it).
    ///
    /// - Throws: a 404 problem when there is none: resolved already, here or on a replica
    ///   whose resolution came through a sync, or never opened.
    static func openConflict(_ text: String, in store: InventoryStore) throws -> (entry: IdentifiedDraft, conflict: OpenConflict) {
        let id: UUID
        do {
            id = try store.drafts.resolveID(text)
        } catch StoreError.notFound {
            throw Problem(.notFound, "no open conflict '\(RequestChecks.printable(text))': it was resolved already, or never opened")
        }
        guard let entry = try store.drafts.conflictDraft(id: id), let conflict = entry.draft.openConflict else {
            throw Problem(.notFound, "no open conflict '\(id.lowercasedString)': it was resolved already, or never opened")
        }
        return (entry, conflict)
    }

    /// A conflict's page: what is being decided, the two values side by side, and the forms;
    /// `edited` is what the edit form shows (the draft's item, or what was posted and refused
    /// with `error`).
    static func page(_ found: (entry: IdentifiedDraft, conflict: OpenConflict), edited: Item? = nil, error: String? = nil,
                     status: HTTPResponse.Status = .ok) -> Response {
        let (entry, conflict) = found
        let id = entry.id.lowercasedString
        let wanted = conflict.wanted
        func cell(_ field: ItemField, _ item: Item) -> String {
            field.kind == .name ? Presentation.displayName(item.name) : Presentation.text(of: field, in: item)
        }
        var rows = ""
        for field in ItemField.allCases {
            let hub = cell(field, conflict.shown)
            let theirs = wanted.map { cell(field, $0) } ?? "—"
            rows += "<tr class=\"\(wanted != nil && hub != theirs ? "changed" : "")\"><th scope=\"row\">\(HTML.escape(field.label))</th>"
            rows += "<td>\(HTML.escape(hub))</td><td>\(HTML.escape(theirs))</td></tr>"
        }
        let hubHeading = conflict.hubHoldsItem ? "The hub's value" : "The hub: deleted (the replica's last copy)"
        let wantedHeading = wanted == nil ? "The replica wanted it deleted" : "The value the replica wanted"
        var facts = [
            ("Why", "\(Presentation.summary(of: conflict)): \(Presentation.explanation(of: conflict))"),
            ("Replica", conflict.origin.lowercasedString),
            ("Changed there at", "\(conflict.madeAt) (by the replica's clock)"),
        ]
        if let missing = conflict.missing { facts.append(("Missing", "\(missing) \(missing == 1 ? "unit" : "units")")) }
        let takeLabel = wanted == nil ? "Take the replica's: delete the item" : "Take the replica's value"
        var body = error.map { HTML.message($0) } ?? ""
        body += "<dl class=\"facts\" id=\"conflict-facts\">"
        body += facts.map { "<dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd>" }.joined()
        body += "</dl>"
        body += """
            <div class="scroll"><table id="conflict-sides" class="sides"><thead><tr><th scope="col">Field</th><th scope="col">\(HTML.escape(hubHeading))</th><th scope="col">\(HTML.escape(wantedHeading))</th></tr></thead><tbody>
            \(rows)</tbody></table></div>
            <h2>Resolve</h2>
            <div class="actions">
            <form method="post" action="/conflicts/\(id)/keep"><button type="submit">Keep the hub's value</button></form>
            <form method="post" action="/conflicts/\(id)/take"><button type="submit">\(HTML.escape(takeLabel))</button></form>
            </div>
            <h2>Or edit, then save</h2>
            """
        if wanted == nil {
            body += "<p>Saved unchanged, this form takes the replica's choice: the item is deleted.</p>"
        }
        body += """
            <form method="post" action="/conflicts/\(id)/save">
            \(HTML.itemFields(edited ?? entry.draft.item, prefix: "edit-"))
            <div class="actions"><button type="submit">Save this as the resolution</button> <a href="/conflicts">Back to the conflicts</a></div>
            </form>
            """
        return HTML.page("Conflict: \(Presentation.displayName(conflict.shown.name))", body, status: status)
    }

    /// A clear page for a conflict that cannot be shown or resolved: the problem's status and
    /// words, and the way back.
    static func refusal(_ problem: Problem, title: String = "Conflict not resolved") -> Response {
        let body = HTML.message(problem.detail) + "<p><a href=\"/conflicts\">See the open conflicts</a></p>"
        return HTML.page(title, body, status: problem.status)
    }

    // MARK: Resolving

    private func resolve(_ request: Request, id text: String, action: Action) async throws -> Response {
        let form = try await ItemPages.form(request, limit: drafts.configuration.jsonBodyLimit)
        do {
            try await drafts.pool.groupedWrite { store in
                let (entry, conflict) = try ConflictPages.openConflict(text, in: store)
                switch action {
                case .keep:
                    try store.drafts.cancel(id: entry.id)
                case .take:
                    // The draft may have been edited (`draft edit`); taking the replica's value
                    // saves the draft as it started, which for a wanted delete is a delete.
                    try store.drafts.edit(id: entry.id, with: ItemPages.replacement(by: conflict.startingItem))
                    try store.drafts.save(id: entry.id)
                case .save:
                    let item = try ItemPages.item(from: form, id: conflict.itemID)
                    try store.drafts.edit(id: entry.id, with: ItemPages.replacement(by: item))
                    try store.drafts.save(id: entry.id)
                }
            }
        } catch {
            let problem = Problem.from(error)
            guard problem.status != .notFound, action == .save else {
                return ConflictPages.refusal(problem)
            }
            // A refused edit: the page again, with what was typed and why it was refused.
            let found = try? await drafts.pool.read { store in try ConflictPages.openConflict(text, in: store) }
            guard let found else { return ConflictPages.refusal(problem) }
            return ConflictPages.page(found, edited: ItemPages.typed(form, id: found.conflict.itemID),
                                      error: problem.detail + "; nothing was changed", status: problem.status)
        }
        return HTML.redirect("/conflicts?resolved=\(action.rawValue)")
    }

    // MARK: On the list page

    /// The list page's line about syncing: the open conflicts (a link to them, none when
    /// there are none) and, on a replica, the changes waiting to be pushed and the last
    /// successful sync. `data-conflicts` is the count the page's live script compares with
    /// the count the event stream announces.
    static func syncState(openConflicts: Int, replica: ReplicaStatus?) -> String {
        var parts: [String] = []
        if openConflicts > 0 {
            let noun = openConflicts == 1 ? "open conflict" : "open conflicts"
            parts.append("<a id=\"conflicts-link\" href=\"/conflicts\"><strong id=\"conflict-count\">\(openConflicts)</strong> \(noun) to resolve</a>")
        }
        if let replica {
            let changes = replica.pending == 1 ? "change waits" : "changes wait"
            parts.append("<span id=\"replica-state\"><strong id=\"pending-count\">\(replica.pending)</strong> \(changes) to be pushed; "
                         + "last successful sync: <span id=\"last-sync\">\(HTML.escape(replica.lastSync ?? "never"))</span></span>")
        }
        return "<p id=\"sync-state\" class=\"sync-state\" role=\"status\" data-conflicts=\"\(openConflicts)\">\(parts.joined(separator: " · "))</p>"
    }
}
