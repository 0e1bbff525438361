import FoundationEssentials

/// One request of the sync protocol to a `stockroom serve` hub: a method, a path under the
/// server's root (with its query) and a JSON body (docs/replicas.md, "The sync protocol").
public struct HubRequest: Sendable, Equatable {
    /// `GET` or `POST`.
    public var method: String
    /// The path and query, from the server's root: `/api/sync/changes?after=12`.
    public var path: String
    /// The JSON body, empty for a `GET`.
    public var body: [UInt8]

    /// A request.
    public init(method: String, path: String, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.body = body
    }
}

/// The server's answer to a ``HubRequest``.
public struct HubResponse: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The body: JSON, or a problem document (RFC 9457) for a 4xx or 5xx.
    public var body: [UInt8]

    /// An answer.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// How a replica reaches a `stockroom serve` hub: sends a request, carrying the token, and
/// returns the answer. The sync's rules and the protocol's documents live in the store; a
/// transport only moves bytes, so that a program chooses its HTTP client.
///
/// `StockroomHTTP`'s `HTTPHubTransport` is the one Stockroom ships (HTTP and HTTPS, a private
/// CA); `stockroom sync` reaches it through `stockroom-serve`, so that no other command loads
/// an HTTP client at start-up.
///
/// ```swift
/// let hub = try HTTPHubTransport(url: "https://shop.example:8443/", token: token)
/// let report = try await stall.sync(through: hub)
/// ```
public protocol HubTransport: Sendable {
    /// The server's URL as the replica remembers it (no token, no credentials).
    var url: String { get }

    /// Sends `request` and waits for the answer.
    ///
    /// - Throws: ``HubTransportError`` when no answer came (the server cannot be reached, the
    ///   connection broke, a certificate is not trusted); any answer, a 5xx too, is returned.
    func exchange(_ request: HubRequest) throws -> HubResponse
}

/// Why a ``HubTransport`` got no answer.
public struct HubTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, in words: "connection refused", "certificate not trusted: …".
    public var reason: String
    /// True when the cause needs a setting fixed rather than a retry (a certificate, a URL).
    public var isSetting: Bool

    /// A failure to reach the server.
    public init(reason: String, isSetting: Bool = false) {
        self.reason = reason
        self.isSetting = isSetting
    }

    public var description: String { reason }
}
