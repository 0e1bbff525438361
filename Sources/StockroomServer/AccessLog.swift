import FoundationEssentials
import Glibc
import Hummingbird
import StockroomStore
import TextFormats

/// One line per request on stderr: method, path (the `token` parameter removed), status and
/// milliseconds; never a header, a body or a token.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let format: ServerConfiguration.LogFormat

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Below this, ProblemMiddleware answers every error; this is a last resort.
            let problem = Problem.from(error)
            log(request, status: problem.status.code, since: start)
            return problem.response
        }
        log(request, status: response.status.code, since: start)
        return response
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = start.duration(to: .now).components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        let path = AccessLogMiddleware.loggedPath(request.uri.path, query: request.uri.query)
        let method = request.method.rawValue
        let line: String
        switch format {
        case .text:
            line = "\(method) \(path) \(status) \(fixedPointText(milliseconds, decimals: 1))ms\n"
        case .json:
            line = JSONText.object([
                ("time", JSONText.string(Timestamp.now())),
                ("method", JSONText.string(method)), ("path", JSONText.string(path)),
                ("status", String(status)), ("ms", fixedPointText(milliseconds, decimals: 1)),
            ]) + "\n"
        }
        StandardStream.write(line, to: STDERR_FILENO)
    }

    /// The path and query as logged: the `token` parameter dropped, control characters escaped.
    static func loggedPath(_ path: String, query: String?) -> String {
        var text = path
        if let query, !query.isEmpty {
            let kept = query.split(separator: "&").filter { !$0.hasPrefix("token=") && $0 != "token" }
            if !kept.isEmpty { text += "?" + kept.joined(separator: "&") }
        }
        return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
