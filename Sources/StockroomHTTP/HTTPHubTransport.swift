import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOSSL
import StockroomStore

/// A ``HubTransport`` over HTTP and HTTPS: how a replica reaches a `stockroom serve` hub.
///
/// Every request carries the server's token as `Authorization: Bearer`. `stockroom serve`
/// speaks plain HTTP; HTTPS is a reverse proxy's (docs/web.md), whose certificate is checked
/// against the system's CAs, or against `caFile` for a private CA.
///
/// ```swift
/// let shop = try HTTPHubTransport(url: "https://shop.example:8443/", token: token,
///                                 caFile: "/etc/stockroom/shop-ca.pem")
/// let report = try await stall.sync(through: shop)
/// ```
///
/// Its calls block the calling thread until the answer (the store's sync runs on a pool
/// thread of its own), and the connection is kept between them.
public final class HTTPHubTransport: HubTransport {
    public let url: String
    private let base: String
    private let token: String
    private let client: HTTPClient
    private let timeout: TimeAmount

    /// A transport to the server at `url` (`http://` or `https://`, with or without a path).
    ///
    /// - Parameters:
    ///   - token: the server's token (`serve --token-file`).
    ///   - caFile: PEM certificates to trust instead of the system's, for a private CA.
    ///   - timeout: how long one request may take, connection included.
    /// - Throws: ``HubTransportError`` for a URL that is not `http://` or `https://`, or a
    ///   CA file that cannot be read.
    public init(url: String, token: String, caFile: String? = nil, timeout: Duration = .seconds(60)) throws {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw HubTransportError(reason: "'\(url)' is not an http:// or https:// URL", isSetting: true)
        }
        var configuration = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw HubTransportError(reason: "cannot read the CA file \(caFile) as PEM certificates", isSetting: true)
            }
        }
        configuration.tlsConfiguration = tls
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10))
        // A server that refuses the connection fails the sync at once (exit 75): the next sync
        // is the retry, and a person waiting at a stall should not wait out the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.url = url
        base = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.token = token
        let (seconds, attoseconds) = timeout.components
        self.timeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    public func exchange(_ request: HubRequest) throws -> HubResponse {
        var outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(url: base + request.path, method: HTTPMethod(rawValue: request.method))
        } catch {
            throw HubTransportError(reason: "'\(base + request.path)' is not a URL", isSetting: true)
        }
        outgoing.headers.add(name: "Authorization", value: "Bearer " + token)
        outgoing.headers.add(name: "Accept", value: "application/json")
        if request.method != "GET" {
            outgoing.headers.add(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(request.body)
        }
        do {
            let response = try client.execute(request: outgoing, deadline: .now() + timeout).wait()
            var body = response.body ?? ByteBuffer()
            return HubResponse(status: Int(response.status.code), body: body.readBytes(length: body.readableBytes) ?? [])
        } catch {
            throw HTTPHubTransport.failure(error)
        }
    }

    /// Why no answer came, in words a person can act on.
    static func failure(_ error: any Error) -> HubTransportError {
        if let tls = error as? NIOSSLError {
            return HubTransportError(reason: "TLS failed (\(tls)): is the certificate trusted? a private CA needs --ca-file", isSetting: true)
        }
        if let tls = error as? BoringSSLError {
            return HubTransportError(reason: "the server's certificate is not trusted (\(tls)); a private CA needs --ca-file", isSetting: true)
        }
        let text = String(describing: error)
        if text.contains("certificate") || text.contains("handshake") {
            return HubTransportError(reason: "the server's certificate is not trusted (\(text)); a private CA needs --ca-file", isSetting: true)
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return HubTransportError(reason: "no answer in time (\(client))")
            case .remoteConnectionClosed: return HubTransportError(reason: "the server closed the connection before answering")
            default: return HubTransportError(reason: String(describing: client))
            }
        }
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return HubTransportError(reason: "connection refused (is `stockroom serve` running there?)")
        }
        return HubTransportError(reason: text)
    }
}
