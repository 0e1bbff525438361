import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that stands in for a PostgreSQL server misbehaving in ways a
/// real one only does at an unlucky moment: it accepts connections and then either never says
/// anything (a hung server, a socket held by a stuck process), or answers libpq's startup with
/// fixed bytes (`reply`) and closes.
///
/// It answers an `SSLRequest` with `N` (no TLS) first, as a server without TLS does, so that
/// `reply` is what libpq reads after its startup packet.
public final class FakePostgresListener: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let reply: [UInt8]?
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on a free port of 127.0.0.1.
    ///
    /// - Parameter reply: the bytes sent after the startup packet, then the connection is
    ///   closed; nil to never answer (the connection is held open until ``stop()``).
    public init(reply: [UInt8]? = nil) throws {
        self.reply = reply
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    /// `postgresql://ann@127.0.0.1:PORT/shop`, plus `query` when given.
    public func uri(query: String = "") -> String {
        "postgresql://ann@127.0.0.1:\(port)/shop" + (query.isEmpty ? "" : "?" + query)
    }

    /// Stops listening and closes every connection it held.
    public func stop() {
        lock.lock()
        if stopped { lock.unlock(); return }
        stopped = true
        let held = accepted
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
        for descriptor in held { close(descriptor) }
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR { continue }
                return
            }
            lock.lock()
            if stopped { lock.unlock(); close(descriptor); return }
            accepted.append(descriptor)
            lock.unlock()
            guard let reply else { continue }
            answer(descriptor, with: reply)
        }
    }

    /// Reads the startup packet (after an SSLRequest, answered `N`), sends `reply`, closes.
    private func answer(_ descriptor: Int32, with reply: [UInt8]) {
        var packet = readPacket(descriptor)
        // SSLRequest: length 8, code 80877103 (and GSSENCRequest, 80877104).
        if packet.count == 8, packet[4] == 0x04, packet[5] == 0xD2, packet[6] == 0x16, packet[7] == 0x2F || packet[7] == 0x30 {
            _ = send(descriptor, [UInt8(ascii: "N")], 1, Int32(MSG_NOSIGNAL))
            packet = readPacket(descriptor)
        }
        guard !packet.isEmpty else { return }
        _ = reply.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// One length-prefixed packet of the startup phase, or [] at end of input.
    private func readPacket(_ descriptor: Int32) -> [UInt8] {
        func read(_ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + got, count - got, 0) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return [] }
                got += n
            }
            return bytes
        }
        let header = read(4)
        guard header.count == 4 else { return [] }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length >= 4, length < 1 << 16 else { return [] }
        let body = read(length - 4)
        return length == 4 || !body.isEmpty ? header + body : []
    }

    // MARK: Protocol messages, for `reply`

    /// A backend message: its type byte, its length, its body.
    public static func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count + 4)
        return [UInt8(ascii: type.unicodeScalars.first!)] + withUnsafeBytes(of: length.bigEndian) { Array($0) } + body
    }

    /// AuthenticationOk.
    public static let authenticationOK = message("R", [0, 0, 0, 0])
    /// ReadyForQuery, idle.
    public static let readyForQuery = message("Z", [UInt8(ascii: "I")])

    /// An ErrorResponse of `severity` with `sqlState` and `text`.
    public static func error(severity: String, sqlState: String, _ text: String) -> [UInt8] {
        var body: [UInt8] = []
        for (field, value) in [("S", severity), ("V", severity), ("C", sqlState), ("M", text)] {
            body += Array(field.utf8) + Array(value.utf8) + [0]
        }
        return message("E", body + [0])
    }
}
