import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore

/// Reading request bodies within their limits, and the JSON fields of an item.
enum RequestBody {
    /// The body as text, refusing a media type other than `accepted` (415) and a body over
    /// `limit` bytes (413).
    static func text(_ request: Request, limit: Int, accepting accepted: [String]) async throws -> String {
        let type = mediaType(request)
        guard accepted.contains(type) else {
            throw Problem(.unsupportedMediaType, "the body must be \(accepted.joined(separator: " or ")), not \(type.isEmpty ? "(no Content-Type)" : "'\(RequestChecks.printable(type))'")")
        }
        let buffer = try await collect(request, limit: limit)
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            throw Problem(.badRequest, "the body is not valid UTF-8")
        }
        return text
    }

    /// The body's bytes, refusing more than `limit` (413) before reading them all.
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge(limit)
        }
        do {
            return try await reading { try await request.body.collect(upTo: limit) }
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge(limit)
        }
    }

    /// The body as the text of one JSON value, refusing text that is not JSON at all with 400
    /// before any member is looked at: malformed JSON is a fault of the request's syntax,
    /// where JSON that says the wrong thing is one of its content (422).
    static func json(_ request: Request, limit: Int, accepting accepted: [String] = ["application/json"]) async throws -> String {
        let text = try await self.text(request, limit: limit, accepting: accepted)
        guard JSONSyntax.isWellFormed(text) else { throw Problem(.badRequest, "the body is not valid JSON") }
        return text
    }

    /// What `read` returns, reading the request body; a body that stops before its end (the
    /// client closed the connection part-way through it) is the client's fault, 400, not the
    /// server's. A refusal of the body's size or kind (a ``Problem``, an `HTTPError`) passes.
    static func reading<Value>(_ read: () async throws -> Value) async throws -> Value {
        do {
            return try await read()
        } catch let error as Problem {
            throw error
        } catch let error as HTTPError {
            throw error
        } catch {
            throw cutShort
        }
    }

    /// A body that ended before the length the request announced.
    static let cutShort = Problem(.badRequest, "the request body ended before its Content-Length: the client closed the connection part-way")

    static func tooLarge(_ limit: Int) -> Problem {
        Problem(.contentTooLarge, "the body is larger than the limit of \(limit) bytes")
    }

    /// The media type without parameters, lowercased (`application/json`).
    static func mediaType(_ request: Request) -> String {
        let value = request.headers[.contentType] ?? ""
        return value.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
    }

    /// A JSON merge patch of the item's fields (``ItemField``: `name`, `color` and each optional
    /// text, which null removes, and `status`, a whole status object as `items show --format json`
    /// prints it) as an ``ItemEdit``.
    static func edit(fromJSON text: String) throws -> ItemEdit {
        do {
            return try JSONDecoder().decode(EditPatch.self, from: Data(text.utf8)).edit
        } catch let problem as Problem {
            throw problem
        } catch let error as InventoryError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.underlyingError is Problem {
            throw context.underlyingError ?? Problem(.badRequest, "the body is not valid JSON")
        } catch is DecodingError {
            throw Problem(.badRequest, "the body is not a JSON object of \(EditPatch.keyList)")
        }
    }
}

/// Any key of a JSON object.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A merge patch: a key left out changes nothing; `"color": null` removes the colour, and null
/// (or an empty or blank text) an optional text such as the location. Its keys are the
/// ``ItemField`` keys.
struct EditPatch: Decodable {
    var edit = ItemEdit()

    /// The keys a patch may hold, for messages: `name, color, status and location`.
    static var keyList: String {
        let keys = ItemField.allCases.map(\.key)
        return keys.dropLast().joined(separator: ", ") + " and " + keys.last!
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys {
            guard let field = ItemField.allCases.first(where: { $0.key == key.stringValue }) else {
                throw Problem(.badRequest, "unknown key \"\(RequestChecks.printable(key.stringValue))\" (keys: \(ItemField.allCases.map(\.key).joined(separator: ", ")))")
            }
            switch field.kind {
            case .name:
                guard let name = try? container.decode(String.self, forKey: key) else { throw Problem(.badRequest, "name must be a string") }
                try ItemName.validate(name)
                edit.name = name
            case .color:
                if try container.decodeNil(forKey: key) {
                    edit.color = .remove
                } else if let text = try? container.decode(String.self, forKey: key), let color = Color(rawValue: text) {
                    edit.color = .set(color)
                } else {
                    throw Problem(.badRequest, "color must be null or one of \(Color.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            case .status:
                edit.status = try container.decode(StatusObject.self, forKey: key).status
            case .optionalText(let optional):
                if try container.decodeNil(forKey: key) {
                    optional.set(nil, in: &edit)
                } else if let text = try? container.decode(String.self, forKey: key) {
                    optional.set(try optional.parse(text), in: &edit)
                } else {
                    throw Problem(.badRequest, "\(field.key) must be null or a string")
                }
            }
        }
    }
}

/// `{"case":"inStock","quantity":N}` or `{"case":"outOfStock","isOnBackOrder":B}`: the case
/// names are JSONPresentation's (``TagSpellings/statusCases``), the payload the tag's own.
struct StatusObject: Decodable {
    var status: Status

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let keys = Set(container.allKeys.map(\.stringValue))
        // The cases named in a refusal only: a body that decodes builds no message.
        var cases: String { TagSpellings.statusCases.joined(separator: " or ") }
        guard let name = try? container.decode(String.self, forKey: AnyKey(stringValue: "case")) else {
            throw Problem(.badRequest, "status must be an object with a case: \(cases)")
        }
        guard let tag = StatusCodec.tag(jsonCaseName: name) else {
            throw Problem(.badRequest, "unknown status case \"\(RequestChecks.printable(name))\" (\(cases))")
        }
        switch tag {
        case .inStock:
            guard keys == ["case", "quantity"], let quantity = try? container.decode(Int.self, forKey: AnyKey(stringValue: "quantity")) else {
                throw Problem(.badRequest, "\(name) needs a whole quantity and nothing else")
            }
            status = .inStock(quantity: quantity)
        case .outOfStock:
            guard keys == ["case", "isOnBackOrder"], let flag = try? container.decode(Bool.self, forKey: AnyKey(stringValue: "isOnBackOrder")) else {
                throw Problem(.badRequest, "\(name) needs isOnBackOrder true or false and nothing else")
            }
            status = .outOfStock(isOnBackOrder: flag)
        }
    }
}
