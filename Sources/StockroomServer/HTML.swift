import Hummingbird
import Inventory
import StockroomStore

/// Building pages: escaping, the shared layout, and the response.
enum HTML {
    /// `text` safe inside an element or a quoted attribute.
    ///
    /// Works on the UTF-8 bytes: the five characters it replaces are ASCII, which never occurs
    /// inside another character's encoding, so nothing else needs to be looked at as a
    /// `Character`. Text without any of them (most names) is returned as it is, uncopied: a list
    /// page escapes a few hundred strings, and walking them by `Character` was the largest part
    /// of building the page (BENCHMARKS.md, "Issue 29: the list page's time").
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { escapesTo($0) != nil }) else { return text }
        var result = [UInt8]()
        result.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if let replacement = escapesTo(byte) {
                result.append(contentsOf: replacement.utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What a byte of text is written as in markup, or nil when it is written as it is.
    @inline(__always)
    private static func escapesTo(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    /// A whole page: the title, the navigation, `body`, and the live-update script.
    ///
    /// Written straight into the response's buffer: a list page is about 85 KB, which a string
    /// of the whole page would have copied once more.
    static func page(_ title: String, _ body: String, status: HTTPResponse.Status = .ok) -> Response {
        let head = """
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
            <a href="/">Items</a> <a href="/items/new">Add item</a> <a href="/drafts">Drafts</a> <a href="/conflicts">Conflicts</a> <a href="/import">Import</a> <a href="/export">Export</a>
            </nav></header>
            <main>
            <h1>\(escape(title))</h1>

            """
        let tail = """

            </main>
            <script src="/assets/live.js" defer></script>
            </body>
            </html>

            """
        var buffer = ByteBuffer()
        buffer.reserveCapacity(head.utf8.count + body.utf8.count + tail.utf8.count)
        buffer.writeString(head)
        buffer.writeString(body)
        buffer.writeString(tail)
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: buffer))
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

    /// The status choices of a form, in the filter's spelling (``TagSpellings/choice(for:)``),
    /// `status`'s chosen.
    static func statusOptions(selected status: Status) -> String {
        options(ItemQuery.StatusFilter.allCases.map { ($0.text, TagSpellings.label(for: $0)) },
                selected: TagSpellings.choice(for: status).text)
    }

    /// A control of the form for each field of the item (``ItemField``), each with its label:
    /// the status as its choice and the quantity.
    static func itemFields(_ item: Item, prefix: String = "") -> String {
        ItemField.allCases.map { field in itemField(field, of: item, prefix: prefix) }.joined(separator: "\n")
    }

    /// The labelled control of `field`, named by its key.
    static func itemField(_ field: ItemField, of item: Item, prefix: String) -> String {
        let id = prefix + field.key
        let label = "<div class=\"field\"><label for=\"\(id)\">\(escape(field.label))</label>"
        switch field.kind {
        case .name:
            return """
                \(label)
                <input id="\(id)" name="\(field.key)" value="\(escape(item.name))" required maxlength="1000" autocomplete="off"></div>
                """
        case .color:
            return """
                \(label)
                <select id="\(id)" name="\(field.key)">\(colorOptions(selected: item.color))</select></div>
                """
        case .status:
            let quantity: String = if case .inStock(let quantity) = item.status { String(quantity) } else { "" }
            return """
                \(label)
                <select id="\(prefix)status" name="status">\(statusOptions(selected: item.status))</select></div>
                <div class="field"><label for="\(prefix)quantity">Quantity (when in stock)</label>
                <input id="\(prefix)quantity" name="quantity" type="number" min="\(Status.minimumQuantity)" inputmode="numeric" value="\(quantity)"></div>
                """
        case .optionalText(let optional):
            return """
                \(label)
                <input id="\(id)" name="\(field.key)" value="\(escape(optional.text(in: item) ?? ""))" maxlength="\(optional.maximumLength)" autocomplete="off"></div>
                """
        }
    }
}
