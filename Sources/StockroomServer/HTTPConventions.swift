import Hummingbird

/// What every answer of the server follows, whatever route (or none) answered it, in one place
/// around the router rather than in each handler:
///
/// - `HEAD` is answered for every `GET` route: the request is routed as a `GET`, and the answer
///   keeps the `GET`'s status and headers (`Content-Length` when the body's length is known
///   beforehand, chunked framing when it is not) but drops the body unwritten. A streamed body
///   (the export, the event stream) starts its work only when written, so a `HEAD` of the
///   export reads no row.
/// - Every answer carries ``securityHeaders``: no content sniffing, and no framing by another
///   site (clickjacking: a page of another site framing the delete confirmation, which asks no
///   token over loopback).
struct HTTPConventionsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The headers added to every answer. The policy restricts only what the pages never do
    /// (be framed, change their base URL, send a form elsewhere, embed plugins), so it holds
    /// whatever markup and stylesheet the pages have. `X-Frame-Options` says what
    /// `frame-ancestors` says to browsers that predate it.
    static var securityHeaders: HTTPFields {
        [
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
            .xFrameOptions: "DENY",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if request.method == .head {
            var head = request.head
            head.method = .get
            let answer = await Self.answer(Request(head: head, body: request.body), context, next)
            // The GET's headers as they are, its Content-Length included; its body is dropped
            // unrun, so nothing the body would read or compute is.
            response = Response(status: answer.status, headers: answer.headers, body: ResponseBody(contentLength: nil) { writer in
                try await writer.finish(nil)
            })
        } else {
            response = await Self.answer(request, context, next)
        }
        for field in Self.securityHeaders where !response.headers.contains(field.name) {
            response.headers.append(field)
        }
        return response
    }

    /// The answer below, with an error the routes let through answered as a problem here, so
    /// that it carries the headers too.
    private static func answer(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response) async -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Problem.from(error).response
        }
    }
}

extension HTTPFields.Element.Name {
    /// `X-Content-Type-Options`.
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    /// `X-Frame-Options`.
    static let xFrameOptions = Self("X-Frame-Options")!
}
