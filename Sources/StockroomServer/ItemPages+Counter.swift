import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore

/// The counter on the list page: each row's colour swatch, its muted look when out of stock,
/// and its buttons (sell one, receive one, receive N, duplicate). Plain forms posting to the
/// item's adjustments, so the list works without script and from the keyboard.
extension ItemPages {
    func registerCounter(on router: Router<BasicRequestContext>) {
        router.post("/items/:id/adjustments") { request, context in try await adjust(request, id: try context.parameters.require("id")) }
    }

    /// One row of the list. `escapedBack` is the list's query (filters and page), already
    /// escaped for an attribute, which the row's forms send back so the answer shows the same
    /// page.
    ///
    /// The counter's forms are one literal: each `+=` of an interpolated piece built and copied
    /// a string of its own, and the rows are most of a page's time (BENCHMARKS.md, "Issue 29:
    /// the list page's time").
    static func listRow(_ item: Item, version: Int, escapedBack back: String) -> String {
        let id = item.id.lowercasedString
        let name = HTML.escape(Presentation.displayName(item.name))
        let inStock = item.status.isInStock
        // Out of stock is said in words and italics, then dimmed: never by colour alone.
        let status = HTML.escape(Presentation.text(for: item.status))
        // The field cells: each field of the declaration, in its order.
        var cells = ""
        ItemField.forEach { field in
            switch field.kind {
            case .name: cells += "<td><a href=\"/items/\(id)\">\(name)</a></td>"
            case .color: cells += "<td>\(swatch(item.color))\(HTML.escape(Presentation.text(for: item.color)))</td>"
            case .status: cells += "<td>\(inStock ? status : "<em>\(status)</em>")</td>"
            case .optionalText: cells += "<td class=\"\(field.key)\">\(HTML.escape(Presentation.text(of: field, in: item)))</td>"
            }
        }
        let action = "/items/\(id)/adjustments"
        return """
            <tr id="item-\(id)"\(inStock ? "" : " class=\"out-of-stock\"")>\(cells)<td class="version">\(version)</td>\
            <td class="counter">\
            <form method="post" action="\(action)"><input type="hidden" name="back" value="\(back)"><input type="hidden" name="by" value="-1">\
            <button type="submit"\(inStock ? "" : " disabled")>-1<span class="visually-hidden"> (sell one \(name))</span></button></form>\
            <form method="post" action="\(action)"><input type="hidden" name="back" value="\(back)"><input type="hidden" name="by" value="1">\
            <button type="submit">+1<span class="visually-hidden"> (receive one \(name))</span></button></form>\
            <form method="post" action="\(action)" class="receive"><input type="hidden" name="back" value="\(back)">\
            <label class="visually-hidden" for="receive-\(id)">How many of \(name) received</label>\
            <input id="receive-\(id)" name="by" type="number" min="1" step="1" inputmode="numeric" required placeholder="N">\
            <button type="submit">Receive<span class="visually-hidden"> \(name)</span></button></form>\
            <form method="post" action="/drafts"><input type="hidden" name="duplicate" value="\(id)">\
            <button type="submit">Duplicate<span class="visually-hidden"> \(name)</span></button></form>\
            </td></tr>

            """
    }

    /// A square of the colour beside its name, which is its text alternative (so the square
    /// itself is hidden from screen readers); nothing for an item without a colour.
    static func swatch(_ color: Color?) -> String {
        guard let color else { return "" }
        return "<span class=\"swatch swatch-\(color.rawValue)\" aria-hidden=\"true\"></span>"
    }

    /// The list's query from a row's `back` field, rebuilt from the names the list reads, so
    /// that what a form sends back cannot redirect anywhere else.
    static func listURL(back: String?, item id: UUID? = nil) -> String {
        let query = backQuery(Form(back))
        return "/" + (query.isEmpty ? "" : "?" + query) + (id.map { "#item-\($0.lowercasedString)" } ?? "")
    }

    /// The list's own query string (filters and page cursor) for the rows' `back` fields.
    static func backQuery(_ form: Form) -> String {
        var query = filterQuery(form)
        if let after = form.nonEmpty("after") { query += (query.isEmpty ? "" : "&") + "after=" + Form.encode(after) }
        return query
    }

    /// A row's form: the adjustment, then the list again at the same place (303); a refused
    /// one shows the list with the reason, nothing changed.
    private func adjust(_ request: Request, id: String) async throws -> Response {
        let form = try await ItemPages.form(request, limit: items.configuration.jsonBodyLimit)
        let back = Form(form["back"])
        guard let change = form["by"].flatMap({ Int($0.trimmingWhitespace()) }) else {
            return try await listPage(back, error: "the number to receive must be a whole number; nothing was changed", status: .badRequest)
        }
        do {
            let (item, _) = try await items.adjust(id, by: change, ifVersion: nil)
            return HTML.redirect(ItemPages.listURL(back: form["back"], item: item.id))
        } catch {
            let problem = Problem.from(error)
            // Which row was refused: the list shows many.
            let name = (try? await items.current(id)).map { Presentation.displayName($0.item.name) + ": " } ?? ""
            return try await listPage(back, error: name + problem.detail, status: problem.status)
        }
    }
}
