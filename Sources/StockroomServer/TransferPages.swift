import FoundationEssentials
import Glibc
import Hummingbird
import StockroomStore

/// Import (a file upload, bad rows listed by line) and export (downloads).
struct TransferPages: Sendable {
    let transfer: TransferAPI

    func register(on router: Router<BasicRequestContext>) {
        router.get("/import") { _, _ in TransferPages.importPage(message: nil) }
        router.post("/import") { request, _ in try await upload(request) }
        router.get("/export") { _, _ in
            let links = TransferFormat.allCases.map {
                "<li><a href=\"/api/export?format=\($0.rawValue)\" download>Download every item as \($0.rawValue.uppercased())</a></li>"
            }.joined()
            return HTML.page("Export", "<p>The same bytes as <code>stockroom export --format F</code>, ordered by id.</p><ul>\(links)</ul>")
        }
    }

    static func importPage(message: String?, problems: [ImportRejection.Problem] = [], status: HTTPResponse.Status = .ok) -> Response {
        var body = message.map { HTML.message($0, isError: status != .ok) } ?? ""
        if !problems.isEmpty {
            body += "<div class=\"scroll\"><table id=\"import-errors\"><thead><tr><th scope=\"col\">Line</th><th scope=\"col\">Problem</th></tr></thead><tbody>"
            for problem in problems { body += "<tr><td>\(problem.line)</td><td>\(HTML.escape(problem.reason))</td></tr>" }
            body += "</tbody></table></div>"
        }
        body += """
            <form method="post" action="/import" enctype="multipart/form-data">
            <div class="field"><label for="file">File (CSV or JSON Lines, as <code>stockroom export</code> writes)</label>
            <input id="file" name="file" type="file" accept=".csv,.jsonl,.ndjson,text/csv" required></div>
            <div class="field"><label for="format">Format</label>
            <select id="format" name="format">\(HTML.options([("", "from the file name"), ("csv", "CSV"), ("jsonl", "JSON Lines")], selected: ""))</select></div>
            <div class="field"><label for="on-conflict">An id already in the inventory</label>
            <select id="on-conflict" name="on-conflict">\(HTML.options([("fail", "refuses the import"), ("skip", "is skipped"), ("replace", "replaces the stored item")], selected: "fail"))</select></div>
            <div class="actions"><button type="submit">Import</button></div>
            </form>
            <p>All or nothing: if any row is bad, nothing is imported and each bad row is listed by its line.</p>
            """
        return HTML.page("Import", body, status: status)
    }

    private func upload(_ request: Request) async throws -> Response {
        let limit = transfer.configuration.importBodyLimit
        let buffer = try await RequestBody.collect(request, limit: limit)
        guard let parts = Multipart.parse(Array(buffer.readableBytesView), contentType: request.headers[.contentType] ?? "") else {
            throw Problem(.unsupportedMediaType, "the upload must be a multipart/form-data form with a file")
        }
        guard let file = parts.first(where: { $0.name == "file" }) else {
            return TransferPages.importPage(message: "choose a file to import", status: .badRequest)
        }
        let chosen = parts.first(where: { $0.name == "format" }).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        let format: TransferFormat
        if let named = TransferFormat(rawValue: chosen), named != .json {
            format = named
        } else if let byName = file.fileName.flatMap(TransferFormat.fromExtension(of:)), byName != .json {
            format = byName
        } else {
            format = .jsonl
        }
        let policyText = parts.first(where: { $0.name == "on-conflict" }).map { String(decoding: $0.body, as: UTF8.self) }
        do {
            let policy = try TransferAPI.policy(policyText)
            let summary = try await transfer.run(format: format, policy: policy, spool: try Spool(bytes: file.body))
            var text = "Imported \(summary.imported) items"
            if summary.skipped > 0 { text += " (\(summary.skipped) skipped: their ids exist)" }
            if summary.replaced > 0 { text += " (\(summary.replaced) replaced)" }
            return TransferPages.importPage(message: text + ".")
        } catch let rejection as ImportRejection {
            return TransferPages.importPage(message: rejection.description, problems: rejection.problems, status: .unprocessableContent)
        } catch {
            let problem = Problem.from(error)
            return TransferPages.importPage(message: problem.detail, status: problem.status)
        }
    }
}

/// The parts of a `multipart/form-data` body: enough of RFC 7578 for one form's fields and file.
enum Multipart {
    struct Part {
        var name: String
        var fileName: String?
        var body: ArraySlice<UInt8>
    }

    static func parse(_ bytes: [UInt8], contentType: String) -> [Part]? {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
              let range = contentType.firstRange(of: "boundary=") else { return nil }
        var boundary = String(contentType[range.upperBound...])
        if let semicolon = boundary.firstIndex(of: ";") { boundary = String(boundary[..<semicolon]) }
        boundary = boundary.trimming(["\"", " "])
        guard !boundary.isEmpty else { return nil }
        let delimiter = Array(("--" + boundary).utf8)
        var parts: [Part] = []
        var starts: [Int] = []
        var index = 0
        while let found = find(delimiter, in: bytes, from: index) {
            starts.append(found)
            index = found + delimiter.count
        }
        guard starts.count >= 2 else { return nil }
        for (start, end) in zip(starts, starts.dropFirst()) {
            var partStart = start + delimiter.count
            if partStart + 1 < bytes.count, bytes[partStart] == 13, bytes[partStart + 1] == 10 { partStart += 2 }
            var partEnd = end
            if partEnd >= 2, bytes[partEnd - 2] == 13, bytes[partEnd - 1] == 10 { partEnd -= 2 }
            guard partStart <= partEnd, let headerEnd = find(Array("\r\n\r\n".utf8), in: bytes, from: partStart), headerEnd <= partEnd else { continue }
            let headers = String(decoding: bytes[partStart..<headerEnd], as: UTF8.self)
            guard let name = parameter("name", in: headers) else { continue }
            parts.append(Part(name: name, fileName: parameter("filename", in: headers), body: bytes[(headerEnd + 4)..<partEnd]))
        }
        return parts
    }

    private static func parameter(_ key: String, in headers: String) -> String? {
        for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            for piece in line.split(separator: ";") {
                let trimmed = piece.trimmingWhitespace()
                if trimmed.hasPrefix(key + "=") {
                    return String(trimmed.dropFirst(key.count + 1)).trimming(["\""])
                }
            }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let first = needle[0]
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
