import Foundation
import Hummingbird
import Synchronization

/// The port the server listens on, known once it is bound (`--port 0` lets the system pick).
final class BoundPort: Sendable {
    private let value: Atomic<Int>
    init(_ port: Int) { value = Atomic(port) }
    var port: Int { value.load(ordering: .relaxed) }
    func set(_ port: Int) { value.store(port, ordering: .relaxed) }
}

/// What a local web server must refuse even on loopback, in order:
///
/// 1. A `Host` that is not this server's (DNS rebinding: a page on another site whose name
///    now points at 127.0.0.1) gets 403 naming the host.
/// 2. An unsafe method sent from another site (`Sec-Fetch-Site: cross-site`, or an `Origin`
///    other than this server's) gets 403: a form on another site cannot post here. Checked
///    before the token, so a cross-site write is refused as such (403) whether or not it
///    carries a token, and a 401 never invites another site to retry with one.
/// 3. With a token: `?token=` is exchanged for an `HttpOnly; SameSite=Strict` cookie and a
///    redirect without it; otherwise the cookie or `Authorization: Bearer` must carry it
///    (compared in constant time), else 401.
/// 4. Read-only: anything but GET and HEAD gets 405.
struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let configuration: ServerConfiguration
    let boundPort: BoundPort

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        guard isAllowed(host: host) else {
            throw Problem(.forbidden, "the Host \(host.isEmpty ? "(none)" : "'\(RequestChecks.printable(host))'") is not this server's; start it with --allowed-host NAME to accept it")
        }
        let isSafe = request.method == .get || request.method == .head
        if !isSafe {
            if request.headers[.secFetchSite] == "cross-site" {
                throw Problem(.forbidden, "a \(request.method.rawValue) from another site is refused (Sec-Fetch-Site: cross-site)")
            }
            if let origin = request.headers[.origin], origin != "http://" + host {
                throw Problem(.forbidden, "a \(request.method.rawValue) from another origin is refused (Origin '\(RequestChecks.printable(origin))' is not http://\(RequestChecks.printable(host)))")
            }
        }
        if let token = configuration.token {
            if let offered = Form(request.uri.query)["token"] {
                guard RequestChecks.constantTimeEqual(offered, token) else {
                    throw Problem(.unauthorized, "the token is wrong: open the URL that `stockroom serve` printed")
                }
                var headers: HTTPFields = [.location: RequestChecks.withoutToken(path: request.uri.path, query: request.uri.query)]
                headers[.setCookie] = "\(RequestChecks.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
                return Response(status: .seeOther, headers: headers)
            }
            guard let offered = RequestChecks.offeredToken(request), RequestChecks.constantTimeEqual(offered, token) else {
                throw Problem(.unauthorized, "a token is required: open the URL that `stockroom serve` printed, or send Authorization: Bearer TOKEN",
                              headers: [.wwwAuthenticate: "Bearer"])
            }
        }
        if !isSafe && configuration.readOnly {
            throw Problem(.methodNotAllowed, "the server is read-only (--read-only): only GET and HEAD are answered",
                          headers: [.allow: "GET, HEAD"])
        }
        return try await next(request, context)
    }

    /// Whether `authority` (`name:port`) names this server.
    func isAllowed(host authority: String) -> Bool {
        let (name, port) = RequestChecks.split(authority)
        let bound = boundPort.port
        for allowed in configuration.allowedHosts where allowed.lowercased() == authority.lowercased() { return true }
        guard port == bound || (port == nil && bound == 80) else { return false }
        let names = ["localhost", "127.0.0.1", "[::1]", configuration.host, configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host]
            + configuration.allowedHosts.filter { !$0.contains(":") || $0.hasPrefix("[") && $0.hasSuffix("]") }
        return names.contains { $0.lowercased() == name.lowercased() }
    }
}

/// The checks that need no request context: parsing, comparing and showing what a request sent.
enum RequestChecks {
    static let cookieName = "stockroom_token"

    /// `name` and `port` of `name:port`, `[::1]:port` or `name`.
    static func split(_ authority: String) -> (name: String, port: Int?) {
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            return (String(authority[..<colon]), Int(authority[authority.index(after: colon)...]))
        }
        return (authority, nil)
    }

    /// The token from the cookie or the `Authorization: Bearer` header.
    static func offeredToken(_ request: Request) -> String? {
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            return String(authorization.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix(cookieName + "=") { return String(trimmed.dropFirst(cookieName.count + 1)) }
            }
        }
        return nil
    }

    /// Compares every byte whatever the first difference, so the time taken does not tell how
    /// much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<y.count {
            difference |= (index < x.count ? x[index] : 0) ^ y[index]
        }
        return difference == 0
    }

    /// The request's path and query with the `token` parameter removed.
    static func withoutToken(path: String, query: String?) -> String {
        let kept = (query ?? "").split(separator: "&").filter { !$0.hasPrefix("token=") && $0 != "token" }
        return path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    /// Text from a request shown in a message: control characters replaced, at most 100.
    static func printable(_ text: String) -> String {
        String(String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }).prefix(100))
    }
}

extension HTTPFields.Element.Name {
    /// `Sec-Fetch-Site`: which site a browser sent the request from.
    static let secFetchSite = Self("Sec-Fetch-Site")!
    /// `Link` (RFC 8288).
    static let link = Self("Link")!
}
