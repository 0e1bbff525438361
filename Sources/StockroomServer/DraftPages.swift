import DraftFlow
import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore

/// The drafts page and the wizard, one question per page: the same steps, wording and checks
/// as `draft wizard`, driven by ``DraftWizard``. The step shown is in the URL, so Back, a
/// reload and a draft started in the terminal all resume where they should.
struct DraftPages: Sendable {
    let drafts: DraftsAPI

    func register(on router: Router<BasicRequestContext>) {
        router.get("/drafts") { _, _ in try await list() }
        router.post("/drafts") { request, _ in try await start(request) }
        router.get("/drafts/:id/wizard") { request, context in
            let query = Form(request.uri.query)
            let kind = try DraftsAPI.kind(query["step"])
            let wizard = try await drafts.wizard(try context.parameters.require("id"), at: kind, remembering: try WizardMemory.parse(query))
            return DraftPages.stepPage(wizard, reask: nil)
        }
        router.post("/drafts/:id/wizard") { request, context in try await answer(request, id: try context.parameters.require("id")) }
    }

    private func list() async throws -> Response {
        let all = try await drafts.pool.read { store in try store.drafts.all() }
        let entries = all.filter { $0.draft.openConflict == nil }
        var body = """
            <form method="post" action="/drafts"><div class="actions"><button type="submit">Start a new draft</button></div></form>
            <div class="scroll"><table><thead><tr><th scope="col">Draft</th><th scope="col">Kind</th><th scope="col">Name</th><th scope="col">Status</th></tr></thead><tbody id="drafts">
            """
        for entry in entries {
            let item = entry.draft.item
            body += "<tr><td><a href=\"/drafts/\(entry.id.lowercasedString)/wizard\">Continue \(Presentation.shortID(entry.id))</a></td>"
            body += "<td>\(HTML.escape(Presentation.kindText(for: entry.draft)))</td><td>\(HTML.escape(Presentation.displayName(item.name)))</td>"
            body += "<td>\(HTML.escape(Presentation.text(for: item.status)))</td></tr>"
        }
        if entries.isEmpty { body += "<tr><td colspan=\"4\">No drafts.</td></tr>" }
        body += "</tbody></table></div>"
        // The conflicts' drafts too, each resolved on its own page (ConflictPages).
        if entries.count < all.count { body += "<h2>Conflicts to resolve</h2>" + ConflictPages.table(all) }
        return HTML.page("Drafts", body)
    }

    private func start(_ request: Request) async throws -> Response {
        let form = try await ItemPages.form(request, limit: drafts.configuration.jsonBodyLimit)
        let entry = try await drafts.start(duplicating: form.nonEmpty("duplicate"), edit: ItemEdit())
        return HTML.redirect(DraftPages.url(entry.id, kind: nil, memory: nil))
    }

    /// The page of a step; `memory` rides along so the next request rebuilds the same wizard.
    static func url(_ id: UUID, kind: WizardStep.Kind?, memory: DraftWizard.Memory?) -> String {
        let parts = (kind.map { ["step=\(DraftsAPI.name($0))"] } ?? []) + (memory.map { [WizardMemory.query($0)] } ?? [])
        return "/drafts/\(id.lowercasedString)/wizard" + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
    }

    private func answer(_ request: Request, id: String) async throws -> Response {
        let form = try await ItemPages.form(request, limit: drafts.configuration.jsonBodyLimit)
        let kind = try DraftsAPI.kind(form["step"])
        let answer = form["action"] == "back" ? WizardInput.backToken : (form["answer"] ?? "")
        switch try await drafts.advance(id, at: kind, remembering: try WizardMemory.parse(form), with: answer) {
        case .next(let wizard): return HTML.redirect(DraftPages.url(wizard.entry.id, kind: wizard.step.kind, memory: wizard.memory))
        case .reask(let wizard, let reason): return DraftPages.stepPage(wizard, reask: reason)
        case .saved(let item): return HTML.redirect("/items/\(item.id.lowercasedString)")
        case .cancelled, .kept: return HTML.redirect("/drafts")
        }
    }

    /// One question: its label is the terminal's prompt without the trailing colon.
    static func stepPage(_ wizard: DraftWizard, reask: WizardReask?) -> Response {
        let step = wizard.step
        let lines = WizardPresentation.prompt(for: step)
        let label = HTML.escape(lines.last.map { $0.trimmingWhitespace() }.map { $0.hasSuffix(":") ? String($0.dropLast()) : $0 } ?? "")
        let path = DraftWizard.path(for: wizard.entry.draft.item)
        let position = (path.firstIndex(of: step.kind) ?? 0) + 1
        let id = wizard.entry.id.lowercasedString
        var body = "<p>Draft \(id). Step \(position) of \(path.count).</p>"
        let conflict = wizard.entry.draft.openConflict
        if let conflict {
            // The questions choose what the item becomes; the page says what is being decided.
            body += "<p class=\"conflict\">Resolving a conflict (\(HTML.escape(Presentation.summary(of: conflict)))): \(HTML.escape(Presentation.explanation(of: conflict))). "
            body += "The hub: \(HTML.escape(Presentation.hubText(of: conflict))). Replica \(HTML.escape(Presentation.shortID(conflict.origin))) "
            body += "wanted at \(HTML.escape(conflict.madeAt)): \(HTML.escape(Presentation.wantedText(of: conflict))).</p>"
        }
        if let reask { body += HTML.message(reask.description) }
        body += "<form method=\"post\" action=\"/drafts/\(id)/wizard\"><input type=\"hidden\" name=\"step\" value=\"\(DraftsAPI.name(step.kind))\">"
        body += WizardMemory.hiddenInputs(wizard.memory)
        switch step {
        case .name(let current):
            body += "<div class=\"field\"><label for=\"answer\">\(label)</label><input id=\"answer\" name=\"answer\" value=\"\(HTML.escape(current))\" autofocus autocomplete=\"off\"></div>"
        case .color(let current):
            body += "<div class=\"field\"><label for=\"answer\">\(label)</label><select id=\"answer\" name=\"answer\" autofocus>"
            body += HTML.options([("none", "none")] + Color.allCases.map { ($0.rawValue, $0.rawValue) }, selected: current?.rawValue ?? "none")
            body += "</select></div>"
        case .location(let current):
            body += "<div class=\"field\"><label for=\"answer\">\(label)</label><input id=\"answer\" name=\"answer\" value=\"\(HTML.escape(current?.text ?? ""))\" maxlength=\"\(ItemLocation.maximumLength)\" autofocus autocomplete=\"off\"></div>"
        case .inStock(let current), .backOrder(let current):
            body += "<fieldset><legend>\(label)</legend>"
            body += "<label><input type=\"radio\" name=\"answer\" value=\"y\"\(current ? " checked" : "") autofocus> yes</label>"
            body += "<label><input type=\"radio\" name=\"answer\" value=\"n\"\(current ? "" : " checked")> no</label></fieldset>"
        case .quantity(let current):
            body += "<div class=\"field\"><label for=\"answer\">\(label)</label><input id=\"answer\" name=\"answer\" type=\"number\" inputmode=\"numeric\" value=\"\(current)\" autofocus></div>"
        case .review:
            let details = lines.dropLast().filter { !$0.isEmpty }.map(HTML.escape).joined(separator: "\n")
            body += "<pre>\(details)</pre><p>\(label)</p><div class=\"actions\">"
            body += "<button type=\"submit\" name=\"answer\" value=\"s\">Save</button>"
            body += "<button type=\"submit\" name=\"answer\" value=\"e\">Edit</button>"
            body += "<button type=\"submit\" name=\"answer\" value=\"c\">Cancel the draft</button>"
            body += "<button type=\"submit\" name=\"answer\" value=\"q\">Quit and keep the draft</button></div>"
        }
        if step.kind != .review {
            body += "<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"next\">Next</button>"
            if position > 1 { body += "<button type=\"submit\" name=\"action\" value=\"back\" formnovalidate>Back</button>" }
            body += "</div>"
        } else if position > 1 {
            body += "<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"back\">Back</button></div>"
        }
        body += "</form><p><a href=\"/drafts\">Leave: the draft is kept</a></p>"
        return HTML.page("\(conflict == nil ? "New item" : "Conflict"): \(DraftsAPI.name(step.kind))", body,
                         status: reask == nil ? .ok : .unprocessableContent)
    }
}
