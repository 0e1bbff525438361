import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore

/// `POST /api/items/{id}/adjustments` with `{"by": N}`: the counter's relative change, as
/// `items adjust` makes it. Made to the quantity stored when it commits, so adjustments sent at
/// once all count without `If-Match`; with `If-Match` it happens only at that version.
extension ItemsAPI {
    func registerAdjustments(on router: Router<BasicRequestContext>) {
        router.post("/api/items/:id/adjustments") { request, context in
            try await adjustment(request, id: try context.parameters.require("id"))
        }
    }

    private func adjustment(_ request: Request, id: String) async throws -> Response {
        let version = try request.headers[.ifMatch].map { value in
            guard let version = ETag.version(value) else {
                throw Problem(.badRequest, "If-Match must be one ETag as the server gave it, e.g. \"3\"")
            }
            return version
        }
        let text = try await RequestBody.text(request, limit: configuration.jsonBodyLimit, accepting: ["application/json"])
        let change = try Adjustment.change(fromJSON: text)
        let (item, newVersion) = try await adjust(id, by: change, ifVersion: version)
        return ItemsAPI.itemResponse(item, version: newVersion)
    }

    /// Adjusts the item by `change` (``ItemRepository/adjust(id:by:ifVersion:)``); returns it
    /// with its version after, read in the same write transaction.
    func adjust(_ text: String, by change: Int, ifVersion version: Int?) async throws -> (Item, Int) {
        try await pool.groupedWrite { store in
            let id = try store.items.resolveID(text)
            let adjusted = try store.items.adjust(id: id, by: change, ifVersion: version)
            return (adjusted, try store.items.version(id: id))
        }
    }
}

/// The body of an adjustment: `{"by": N}`, N a whole number, nothing else.
struct Adjustment: Decodable {
    var by: Int

    static let shape = "the body must be a JSON object {\"by\": N}, N a whole number (negative to take, positive to receive)"

    /// The change `text` asks for; 400 for anything but `{"by": N}`.
    static func change(fromJSON text: String) throws -> Int {
        do {
            return try JSONDecoder().decode(Adjustment.self, from: Data(text.utf8)).by
        } catch let problem as Problem {
            throw problem
        } catch DecodingError.dataCorrupted(let context) where context.underlyingError is Problem {
            throw context.underlyingError ?? Problem(.badRequest, shape)
        } catch {
            throw Problem(.badRequest, shape)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where key.stringValue != "by" {
            throw Problem(.badRequest, "unknown key \"\(RequestChecks.printable(key.stringValue))\" (the only key is by)")
        }
        guard let by = try? container.decode(Int.self, forKey: AnyKey(stringValue: "by")) else { throw Problem(.badRequest, Adjustment.shape) }
        self.by = by
    }
}
