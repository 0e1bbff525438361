import Hummingbird
import Inventory
import StockroomStore

/// Building pages: escaping, the shared layout, and the response.
enum HTML {
    /// `text` safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A whole page: the title, the navigation, `body`, and the live-update script.
    static func page(_ title: String, _ body: String, status: HTTPResponse.Status = .ok) -> Response {
        let text = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · Stockroom</title>
            <link rel="stylesheet" href="/assets/style.css">
            </head>
            <body>
            <header><nav aria-label="Main">
            <a href="/">Items</a> <a href="/items/new">Add item</a> <a href="/drafts">Drafts</a> <a href="/import">Import</a> <a href="/export">Export</a>
            </nav></header>
            <main>
            <h1>\(escape(title))</h1>
            \(body)
            </main>
            <script src="/assets/live.js" defer></script>
            </body>
            </html>

            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A message box: an error (`role="alert"`) or a notice.
    static func message(_ text: String, isError: Bool = true) -> String {
        isError ? "<p class=\"error\" role=\"alert\">\(escape(text))</p>" : "<p class=\"notice\" role=\"status\">\(escape(text))</p>"
    }

    /// A 303 to `location`: the answer to a form posted, so that reloading does not post again.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// `<option>`s, `selected` marking the one chosen.
    static func options(_ choices: [(value: String, label: String)], selected: String) -> String {
        choices.map { "<option value=\"\(escape($0.value))\"\($0.value == selected ? " selected" : "")>\(escape($0.label))</option>" }
            .joined()
    }

    /// The colour choices of a form: none, then every colour.
    static func colorOptions(selected: Color?) -> String {
        options([("", "none")] + Color.allCases.map { ($0.rawValue, $0.rawValue) }, selected: selected?.rawValue ?? "")
    }

    /// The form's choice for `status`, in the filter's spelling (``TagSpellings/choice(for:)``).
    static func statusValue(_ status: Status) -> String {
        TagSpellings.choice(for: status).text
    }

    /// The status choices of a form, in the filter's spelling (``TagSpellings/choice(for:)``),
    /// `status`'s chosen.
    static func statusOptions(selected status: Status) -> String {
        options(ItemQuery.StatusFilter.allCases.map { ($0.text, TagSpellings.label(for: $0)) },
                selected: TagSpellings.choice(for: status).text)
    }

    /// Name, colour, status, quantity and location fields, each with its label.
    static func itemFields(_ item: Item, prefix: String = "") -> String {
        let quantity: String = if case .inStock(let quantity) = item.status { String(quantity) } else { "" }
        return """
            <div class="field"><label for="\(prefix)name">Name</label>
            <input id="\(prefix)name" name="name" value="\(escape(item.name))" required maxlength="1000" autocomplete="off"></div>
            <div class="field"><label for="\(prefix)color">Colour</label>
            <select id="\(prefix)color" name="color">\(colorOptions(selected: item.color))</select></div>
            <div class="field"><label for="\(prefix)status">Status</label>
            <select id="\(prefix)status" name="status">\(options([("in-stock", "In stock"), ("out-of-stock", "Out of stock"), ("on-back-order", "Out of stock: on back order")], selected: statusValue(item.status)))</select></div>
            <div class="field"><label for="\(prefix)quantity">Quantity (when in stock)</label>
            <input id="\(prefix)quantity" name="quantity" type="number" min="\(Status.minimumQuantity)" inputmode="numeric" value="\(quantity)"></div>
            <div class="field"><label for="\(prefix)location">Location</label>
            <input id="\(prefix)location" name="location" value="\(escape(item.location?.text ?? ""))" maxlength="\(ItemLocation.maximumLength)" autocomplete="off"></div>
            """
    }
}
