import FoundationEssentials
import Glibc
import Hummingbird
import Inventory
import StockroomStore
import TextFormats

/// An error answered as `application/problem+json` (RFC 9457): a status, a title, and the
/// detail in the same words as the CLI's `error:` line. Never a stack trace, an SQL text or
/// value, or a secret.
struct Problem: Error, Sendable {
    var status: HTTPResponse.Status
    var detail: String
    /// Extra members (`currentVersion` for a stale version, `errors` for bad import rows), as
    /// JSON text keyed by name.
    var members: [(key: String, value: String)] = []
    /// Extra response headers (`Retry-After`, `ETag`).
    var headers: HTTPFields = [:]

    static let mediaType = "application/problem+json"

    init(_ status: HTTPResponse.Status, _ detail: String, members: [(key: String, value: String)] = [], headers: HTTPFields = [:]) {
        self.status = status
        self.detail = detail
        self.members = members
        self.headers = headers
    }

    /// The JSON document.
    var json: String {
        JSONText.object([
            ("type", JSONText.string("about:blank")),
            ("title", JSONText.string(status.reasonPhrase)),
            ("status", String(status.code)),
            ("detail", JSONText.string(detail)),
        ] + members)
    }

    var response: Response {
        var fields = headers
        fields[.contentType] = Problem.mediaType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: json + "\n")))
    }

    /// The problem for any error a handler throws: the one place errors become statuses.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as StoreError:
            switch error {
            case .notFound: return Problem(.notFound, error.description)
            case .ambiguousID, .malformedID: return Problem(.badRequest, error.description)
            case .undecodableRow: return Problem(.internalServerError, error.description)
            case .versionConflict(_, _, let current):
                return Problem(.preconditionFailed, error.description,
                               members: [("currentVersion", String(current))], headers: [.eTag: ETag.text(current)])
            }
        case let error as InventoryError:
            if error.isMalformedInput { return Problem(.badRequest, error.description) }
            return Problem(.unprocessableContent, error.description)
        case let rejection as ImportRejection:
            let rows = rejection.problems.map { JSONText.object([("line", String($0.line)), ("reason", JSONText.string($0.reason))]) }
            return Problem(.unprocessableContent, rejection.description,
                           members: [("errors", JSONText.array(rows)), ("total", String(rejection.total))])
        case let error as RowProblem:
            return Problem(.unprocessableContent, error.reason)
        case let error as TransferError:
            return Problem(.badRequest, error.description)
        case let error as HTTPError:
            return Problem(error.status, error.body ?? error.status.reasonPhrase, headers: error.headers)
        default:
            // The one table of engine errors (StoreFailure) names the status, as it names
            // the CLI's exit code; anything else is the server's own failure.
            guard let failure = StoreFailure.of(error, secondsWaited: { "?" }) else {
                return Problem(.internalServerError, "the server could not answer this request")
            }
            var headers: HTTPFields = [:]
            if let seconds = failure.kind.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
            return Problem(HTTPResponse.Status(code: failure.kind.httpStatus), failure.clientDetail, headers: headers)
        }
    }
}

/// Turns every error thrown below it into a problem response, so none escapes as a bare 500
/// and none crashes the connection.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Problem.from(error).response
        }
    }
}

/// An item's version as an entity tag: `"3"`. Strong: the version changes with every change.
enum ETag {
    static func text(_ version: Int) -> String { "\"\(version)\"" }

    /// The version named by an `If-Match` / `If-None-Match` value (`"3"`, `W/"3"`), or nil.
    static func version(_ value: String) -> Int? {
        var text = Substring(value.trimmingWhitespace())
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.count >= 3, text.first == "\"", text.last == "\"" else { return nil }
        return Int(text.dropFirst().dropLast())
    }
}
