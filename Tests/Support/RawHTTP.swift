import Foundation

/// HTTP/1.1 over a plain TCP socket to a server on this machine, byte for byte: for tests that
/// must send what a browser library would not (a foreign `Host`, garbage instead of a request).
public enum RawHTTP {
    /// A parsed response: the status code, the header lines (lowercased names) and the body.
    public struct Response: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: String
    }

    /// Sends `request` (already formatted) to 127.0.0.1:`port` and reads until the server
    /// closes the connection; nil status when the answer is not HTTP.
    public static func exchange(port: Int, _ request: [UInt8]) throws -> [UInt8] {
        try exchange(port: port, request, onSent: {})
    }

    /// As ``exchange(port:_:)``, calling `onSent` once the whole request is on the connection
    /// (before the answer is read): a test that must act while the request is in flight.
    public static func exchange(port: Int, _ request: [UInt8], onSent: () -> Void) throws -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawHTTPError(description: "connect: \(String(cString: strerror(errno)))") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        // Half-close: the server sees the request end here, as from a client that hung up.
        shutdown(descriptor, Int32(SHUT_WR))
        onSent()
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return answer
    }

    /// `METHOD path` with `headers` (Host first) and `body`, on a connection closed after it.
    public static func request(port: Int, _ method: String, _ path: String, host: String? = nil,
                               headers: [String: String] = [:], body: String = "") throws -> Response {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PATCH" { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + body
        return parse(try exchange(port: port, Array(text.utf8)))
    }

    /// The status, headers and (unchunked) body of a raw answer.
    public static func parse(_ bytes: [UInt8]) -> Response {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Response(status: 0, headers: [:], body: text) }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = head.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunked(body) }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunked(_ text: String) -> String {
        var bytes = Substring(text)
        var result = ""
        while let lineEnd = bytes.range(of: "\r\n"), let size = Int(bytes[..<lineEnd.lowerBound], radix: 16), size > 0 {
            let start = lineEnd.upperBound
            let chunk = bytes.utf8[start...].prefix(size)
            result += String(decoding: chunk, as: UTF8.self)
            bytes = bytes[bytes.utf8.index(start, offsetBy: size)...].dropFirst(2)
        }
        return result
    }
}

public struct RawHTTPError: Error, CustomStringConvertible {
    public let description: String
}
