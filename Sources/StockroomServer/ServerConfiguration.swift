import FoundationEssentials
import Glibc

/// What `stockroom serve` was asked for: where to listen, whom to let in, and the limits.
public struct ServerConfiguration: Sendable {
    /// How the access log is written.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// `METHOD PATH STATUS MSms`, one line per request.
        case text
        /// One JSON object per line: `time`, `method`, `path`, `status`, `ms`.
        case json
    }

    /// The address to bind: `127.0.0.1` unless asked otherwise.
    public var host: String
    /// The port; 0 lets the system pick a free one.
    public var port: Int
    /// Host names (optionally `name:port`) accepted in `Host` besides the loopback names.
    public var allowedHosts: [String]
    /// The token every request must carry, or nil when none is required (loopback).
    public var token: String?
    /// Refuse every request that would write (405), with the store opened read-only.
    public var readOnly: Bool
    /// The access log's format.
    public var logFormat: LogFormat
    /// The largest JSON request body, in bytes.
    public var jsonBodyLimit: Int
    /// The largest import body, in bytes.
    public var importBodyLimit: Int

    /// The largest JSON body: 1 MiB (an item is a few hundred bytes).
    public static let defaultJSONBodyLimit = 1 << 20
    /// The largest import body: 64 MiB by default (about 500,000 items as JSON Lines);
    /// `--import-limit` raises it. The body is spooled to a temporary file, not held in memory.
    public static let defaultImportBodyLimit = 64 << 20

    /// A configuration; the defaults are those of `stockroom serve` with no options.
    public init(host: String = "127.0.0.1", port: Int = 8080, allowedHosts: [String] = [], token: String? = nil,
                readOnly: Bool = false, logFormat: LogFormat = .text,
                jsonBodyLimit: Int = defaultJSONBodyLimit, importBodyLimit: Int = defaultImportBodyLimit) {
        self.host = host
        self.port = port
        self.allowedHosts = allowedHosts
        self.token = token
        self.readOnly = readOnly
        self.logFormat = logFormat
        self.jsonBodyLimit = jsonBodyLimit
        self.importBodyLimit = importBodyLimit
    }

    /// True for the loopback addresses, where no token is needed: only this machine's users
    /// can connect (the Host check keeps web pages on other sites out).
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// A new random token: 32 bytes from the system's generator, as 64 hex digits.
    public static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The URL to open, with the token when one is required.
    public func url(port boundPort: Int) -> String {
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let base = "http://\(shownHost):\(boundPort)/"
        guard let token else { return base }
        return base + "?token=" + token
    }
}
