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
        let descriptor = try connected(port: port)
        defer { close(descriptor) }
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

    /// A TCP connection to 127.0.0.1:`port` whose reads give up after 60 s; the caller closes it.
    public static func connected(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw RawHTTPError(description: "connect: \(reason)")
        }
        return descriptor
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

extension RawHTTP {
    /// One Server-Sent Event.
    public struct Event: Sendable, Equatable {
        public let id: String
        public let event: String
        public let data: String
    }

    /// Opens `GET path` as an event stream and returns its first `count` events, then hangs up.
    /// `whenOpen` runs once the stream's headers have arrived (the subscription is live).
    public static func events(port: Int, path: String = "/api/events", headers: [String: String] = [:], count: Int,
                              whenOpen: () throws -> Void = {}) throws -> [Event] {
        let stream = try EventStream(port: port, path: path, headers: headers)
        guard stream.readHead(before: .now + .seconds(60)) else {
            throw RawHTTPError(description: "the stream ended before its head: \(stream.text)")
        }
        try whenOpen()
        let events = stream.read(count: count, before: .now + .seconds(60))
        guard events.count >= count else {
            throw RawHTTPError(description: "the stream ended after \(events.count) events: \(stream.text)")
        }
        return Array(events.prefix(count))
    }

    /// An event stream read a little at a time, with a deadline per read: for a test that must
    /// tell "delivered", "ended" and "open but silent" apart. Closed when released.
    public final class EventStream {
        private let descriptor: Int32
        private var raw: [UInt8] = []
        private var bodyStart: Int?
        /// The events received so far, in order.
        public private(set) var events: [Event] = []
        /// True once the server closed the connection.
        public private(set) var ended = false

        /// Connects to 127.0.0.1:`port` and sends `GET path` with `headers`.
        public init(port: Int, path: String = "/api/events", headers: [String: String] = [:]) throws {
            descriptor = try RawHTTP.connected(port: port)
            var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            let request = Array((text + "\r\n").utf8)
            _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        deinit { close(descriptor) }

        /// What arrived so far, as text (for failure messages).
        public var text: String { String(decoding: raw, as: UTF8.self) }

        /// The status of the answer once its head arrived.
        public var status: Int? { bodyStart.map { _ in RawHTTP.parse(raw).status } }

        /// Reads until the answer's head has arrived; false when the stream ended or `deadline`
        /// passed first.
        public func readHead(before deadline: ContinuousClock.Instant) -> Bool {
            while bodyStart == nil, receive(before: deadline) {}
            return bodyStart != nil
        }

        /// Reads until `count` events have arrived in all, the stream ended, or `deadline`
        /// passed; returns every event received so far.
        @discardableResult
        public func read(count: Int, before deadline: ContinuousClock.Instant) -> [Event] {
            while events.count < count, receive(before: deadline) {}
            return events
        }

        /// One read of what the server sent, waiting until `deadline`; false when the stream
        /// ended or the deadline passed.
        private func receive(before deadline: ContinuousClock.Instant) -> Bool {
            guard !ended else { return false }
            let left = deadline - .now
            guard left > .zero else { return false }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&waiting, 1, milliseconds) > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard got > 0 else {
                ended = true
                return false
            }
            raw += buffer[0..<got]
            if bodyStart == nil, let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) { bodyStart = end.upperBound }
            guard let bodyStart else { return true }
            // Undo the chunked framing, then split into events at blank lines.
            let payload = RawHTTP.dechunkedPrefix(Array(raw[bodyStart...]))
            events = String(decoding: payload, as: UTF8.self).components(separatedBy: "\n\n").dropLast().compactMap { block in
                var id = "", event = "", data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                return id.isEmpty ? nil : Event(id: id, event: event, data: data)
            }
            return true
        }
    }

    /// The payload of the complete chunks at the start of a chunked body.
    fileprivate static func dechunkedPrefix(_ bytes: [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        var index = 0
        while let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
              let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0,
              lineEnd + 2 + size <= bytes.count {
            payload += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
            if index >= bytes.count { break }
        }
        return payload
    }
}

extension RawHTTP {
    /// How a client hangs up.
    public enum HangUp: Sendable, CaseIterable {
        /// An ordinary close (FIN), as a browser tab closed.
        case close
        /// An abortive close (RST, `SO_LINGER` 0), as a killed process or a dropped network.
        case reset
    }

    /// Sends `GET path`, reads at most `limit` bytes of the answer (its head included), then
    /// hangs up without reading the rest: a client that goes away part-way through a response.
    /// `limit` 0 hangs up as soon as the request is sent. Returns how many bytes were read.
    @discardableResult
    public static func abandon(port: Int, _ path: String, afterReading limit: Int, hangUp: HangUp) throws -> Int {
        // Connection: close, so that a limit past the answer's end meets the server's close
        // rather than waiting out its idle timeout.
        try abandon(port: port, sending: Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8),
                    afterReading: limit, hangUp: hangUp)
    }

    /// Sends `request` as it is (it may promise more body than it has), reads at most `limit`
    /// bytes of the answer, then hangs up without reading the rest.
    @discardableResult
    public static func abandon(port: Int, sending request: [UInt8], afterReading limit: Int, hangUp: HangUp) throws -> Int {
        let descriptor = try connected(port: port)
        defer { close(descriptor) }
        if hangUp == .reset {
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var read = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while read < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, min($0.count, limit - read), 0) }
            if count <= 0 { break }
            read += count
        }
        return read
    }
}

public struct RawHTTPError: Error, CustomStringConvertible {
    public let description: String
}
