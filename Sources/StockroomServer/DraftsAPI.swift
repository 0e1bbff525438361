import DraftFlow
import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore
import TextFormats

/// `/api/drafts`: drafts and their wizard, as `draft add/duplicate/list/show/edit/cancel/save`
/// and `draft wizard` give them.
struct DraftsAPI: Sendable {
    let pool: StorePool
    let configuration: ServerConfiguration

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/drafts") { _, _ in
            let drafts = try await pool.read { store in try store.drafts.all() }
            return ItemsAPI.json(JSONText.array(drafts.map(JSONPresentation.object(for:))))
        }
        router.post("/api/drafts") { request, _ in try await create(request) }
        router.get("/api/drafts/:id") { _, context in
            let entry = try await draft(try context.parameters.require("id"))
            return ItemsAPI.json(JSONPresentation.object(for: entry))
        }
        router.patch("/api/drafts/:id") { request, context in
            let text = try await RequestBody.text(request, limit: configuration.jsonBodyLimit,
                                                  accepting: ["application/merge-patch+json", "application/json"])
            let edit = try RequestBody.edit(fromJSON: text)
            let entry = try await self.edit(try context.parameters.require("id"), with: edit)
            return ItemsAPI.json(JSONPresentation.object(for: entry))
        }
        router.delete("/api/drafts/:id") { _, context in
            try await cancel(try context.parameters.require("id"))
            return Response(status: .noContent)
        }
        router.post("/api/drafts/:id/save") { _, context in
            let saved = try await save(try context.parameters.require("id"))
            return ItemsAPI.itemResponse(saved.item, version: saved.version, status: saved.created ? .created : .ok,
                                         extra: [.location: "/api/items/\(saved.item.id.lowercasedString)"])
        }
        router.get("/api/drafts/:id/wizard") { request, context in
            let query = Form(request.uri.query)
            let kind = try DraftsAPI.kind(query["step"])
            let wizard = try await wizard(try context.parameters.require("id"), at: kind, remembering: try WizardMemory.parse(query))
            return ItemsAPI.json(DraftsAPI.stepJSON(wizard))
        }
        router.post("/api/drafts/:id/wizard") { request, context in
            let text = try await RequestBody.text(request, limit: configuration.jsonBodyLimit, accepting: ["application/json"])
            guard let body = try? JSONDecoder().decode(WizardPost.self, from: Data(text.utf8)) else {
                throw Problem(.badRequest, "the body must be {\"step\": STEP, \"answer\": TEXT}")
            }
            let kind = try DraftsAPI.kind(body.step)
            return try await answer(try context.parameters.require("id"), at: kind, remembering: body.remembered?.memory, with: body.answer)
        }
    }

    struct WizardPost: Decodable {
        var step: String?
        var answer: String
        /// The `remembered` of the step being answered (see ``WizardMemory``).
        var remembered: WizardMemory.Posted?
    }

    // MARK: Store work

    func draft(_ text: String) async throws -> IdentifiedDraft {
        try await pool.read { store in try store.drafts.draft(id: try store.drafts.resolveID(text)) }
    }

    func edit(_ text: String, with edit: ItemEdit) async throws -> IdentifiedDraft {
        try await pool.groupedWrite { store in
            try store.drafts.edit(id: try store.drafts.resolveID(text), with: edit)
        }
    }

    func cancel(_ text: String) async throws {
        try await pool.groupedWrite { store in
            try store.drafts.cancel(id: try store.drafts.resolveID(text))
        }
    }

    /// Saves the draft: the new item at version 1, or for a conflict's draft the item as the
    /// resolution left it, at its version (`created` false).
    func save(_ text: String) async throws -> (item: Item, version: Int, created: Bool) {
        try await pool.groupedWrite { store in
            let id = try store.drafts.resolveID(text)
            let resolving = try store.drafts.draft(id: id).draft.openConflict != nil
            let saved = try store.drafts.save(id: id)
            guard resolving else { return (saved, 1, true) }
            let stored = (try? store.items.item(id: saved.id)) ?? saved
            return (stored, try store.items.version(id: saved.id), false)
        }
    }

    /// A new draft: adding (with the fields given) or duplicating an item.
    func start(duplicating itemText: String?, edit: ItemEdit) async throws -> IdentifiedDraft {
        try await pool.groupedWrite { store in
            if let itemText {
                return try store.drafts.startDuplicating(itemID: try store.items.resolveID(itemText))
            }
            return try store.drafts.startAdding(edit)
        }
    }

    private func create(_ request: Request) async throws -> Response {
        let text = try await RequestBody.text(request, limit: configuration.jsonBodyLimit, accepting: ["application/json"])
        let trimmed = text.trimmingWhitespaceAndNewlines()
        var duplicate: String?
        var edit = ItemEdit()
        if !trimmed.isEmpty {
            struct Duplicate: Decodable { var duplicate: String }
            if let asked = try? JSONDecoder().decode(Duplicate.self, from: Data(trimmed.utf8)) {
                duplicate = asked.duplicate
            } else {
                edit = try RequestBody.edit(fromJSON: trimmed)
            }
        }
        let entry = try await start(duplicating: duplicate, edit: edit)
        return ItemsAPI.json(JSONPresentation.object(for: entry), status: .created,
                             headers: [.location: "/api/drafts/\(entry.id.lowercasedString)"])
    }

    // MARK: Wizard

    /// The wizard's step names in URLs and JSON: the Swift case names.
    static func name(_ kind: WizardStep.Kind) -> String {
        switch kind {
        case .name: "name"
        case .color: "color"
        case .location: "location"
        case .inStock: "inStock"
        case .quantity: "quantity"
        case .backOrder: "backOrder"
        case .review: "review"
        }
    }

    static func kind(_ text: String?) throws -> WizardStep.Kind? {
        guard let text, !text.isEmpty else { return nil }
        guard let kind = WizardStep.Kind.allCases.first(where: { name($0) == text }) else {
            throw Problem(.badRequest, "step must be one of \(WizardStep.Kind.allCases.map(name).joined(separator: ", "))")
        }
        return kind
    }

    /// The wizard over the stored draft, at `kind` (the first question when nil), with what
    /// the client carried of the previous step's memory.
    func wizard(_ text: String, at kind: WizardStep.Kind?, remembering memory: DraftWizard.Memory?) async throws -> DraftWizard {
        DraftsAPI.rebuilt(try await draft(text), at: kind, remembering: memory)
    }

    /// The wizard a terminal would have at `kind`, rebuilt from the stored draft and the memory.
    static func rebuilt(_ entry: IdentifiedDraft, at kind: WizardStep.Kind?, remembering memory: DraftWizard.Memory?) -> DraftWizard {
        DraftWizard(entry: entry, at: kind ?? DraftWizard(entry: entry).step.kind, remembering: memory)
    }

    /// The step as JSON: its name, the prompt's lines as `draft wizard` prints them, the path,
    /// and the draft.
    static func stepJSON(_ wizard: DraftWizard, reask: WizardReask? = nil) -> String {
        var members: [(key: String, value: String)] = [
            ("step", JSONText.string(name(wizard.step.kind))),
            ("prompt", JSONText.array(WizardPresentation.prompt(for: wizard.step).map { JSONText.string($0) })),
            ("path", JSONText.array(DraftWizard.path(for: wizard.entry.draft.item).map { JSONText.string(name($0)) })),
            ("draft", JSONPresentation.object(for: wizard.entry)),
            ("remembered", WizardMemory.json(wizard.memory)),
        ]
        if let reask { members.append(("reason", JSONText.string(reask.description))) }
        return JSONText.object(members)
    }

    /// What an answer did, carried out on the store: the next step, the same step asked again
    /// (422 with the reason), or the end (`saved` with the item, `cancelled`, `kept`).
    enum Outcome: Sendable {
        case next(DraftWizard)
        case reask(DraftWizard, WizardReask)
        case saved(Item)
        case cancelled
        case kept(DraftWizard)
    }

    func advance(_ text: String, at kind: WizardStep.Kind?, remembering memory: DraftWizard.Memory?, with answer: String) async throws -> Outcome {
        try await pool.groupedWrite { store in
            let entry = try store.drafts.draft(id: try store.drafts.resolveID(text))
            let wizard = DraftsAPI.rebuilt(entry, at: kind, remembering: memory)
            switch wizard.answering(answer) {
            case .reask(let reason):
                return .reask(wizard, reason)
            case .next(let next, let edit):
                if let edit { _ = try store.drafts.edit(id: entry.id, with: edit) }
                return .next(next)
            case .finished(.save):
                return .saved(try store.drafts.save(id: entry.id))
            case .finished(.cancel):
                try store.drafts.cancel(id: entry.id)
                return .cancelled
            case .finished(.quit):
                return .kept(wizard)
            }
        }
    }

    private func answer(_ text: String, at kind: WizardStep.Kind?, remembering memory: DraftWizard.Memory?, with answer: String) async throws -> Response {
        switch try await advance(text, at: kind, remembering: memory, with: answer) {
        case .next(let wizard):
            return ItemsAPI.json(DraftsAPI.stepJSON(wizard))
        case .reask(let wizard, let reason):
            return ItemsAPI.json(DraftsAPI.stepJSON(wizard, reask: reason), status: .unprocessableContent)
        case .saved(let item):
            return ItemsAPI.json(JSONText.object([("finished", "\"save\""), ("item", JSONPresentation.object(for: item, version: 1))]),
                                 status: .created, headers: [.location: "/api/items/\(item.id.lowercasedString)"])
        case .cancelled:
            return ItemsAPI.json(JSONText.object([("finished", "\"cancel\"")]))
        case .kept(let wizard):
            return ItemsAPI.json(JSONText.object([("finished", "\"quit\""), ("draft", JSONPresentation.object(for: wizard.entry))]))
        }
    }
}
