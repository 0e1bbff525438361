import FoundationEssentials
import Glibc
import Synchronization

/// A ``HubTransport`` whose HTTP client runs in another program: `stockroom-serve
/// --sync-relay`, which links one (StockroomHTTP), started once per sync and spoken to over
/// two pipes. `stockroom` itself links no HTTP client, so that no other command pays for one
/// at start-up; the sync's rules, documents and messages stay in this process.
///
/// The relay's input starts with three lines (the URL, the token, the CA file or an empty
/// line), so that the token is never on a command line; then each request is a line
/// `METHOD PATH LENGTH` and LENGTH bytes of body. Each answer is a line `ANSWER STATUS LENGTH`
/// and LENGTH bytes, or `FAIL SETTING|RETRY REASON` when none came.
package final class RelayTransport: HubTransport {
    package let url: String
    private let channel: Mutex<Channel>

    private struct Channel {
        var requests: Int32
        var answers: Int32
        var process: pid_t
    }

    /// Starts `program --sync-relay` for the server at `url`.
    ///
    /// - Throws: ``HubTransportError`` when the program cannot be started.
    package init(program: String, url: String, token: String, caFile: String?) throws {
        // A relay that stopped is an error on the next write, not a kill.
        signal(SIGPIPE, SIG_IGN)
        var toRelay: [Int32] = [0, 0], fromRelay: [Int32] = [0, 0]
        guard pipe(&toRelay) == 0, pipe(&fromRelay) == 0 else {
            throw HubTransportError(reason: "cannot make a pipe to \(program): \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toRelay[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromRelay[1], STDOUT_FILENO)
        for descriptor in toRelay + fromRelay { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup(HubRelay.argument), nil]
        defer { argv.forEach { free($0) } }
        var process: pid_t = 0
        let spawned = posix_spawn(&process, program, &actions, nil, &argv, environ)
        close(toRelay[0])
        close(fromRelay[1])
        guard spawned == 0 else {
            close(toRelay[1])
            close(fromRelay[0])
            throw HubTransportError(reason: "cannot run \(program): \(String(cString: strerror(spawned)))", isSetting: true)
        }
        self.url = url
        channel = Mutex(Channel(requests: toRelay[1], answers: fromRelay[0], process: process))
        let opening = [url, token, caFile ?? ""].joined(separator: "\n") + "\n"
        _ = channel.withLock { HubRelay.write(Array(opening.utf8), to: $0.requests) }
    }

    deinit {
        channel.withLock { channel in
            close(channel.requests)
            close(channel.answers)
            var status: Int32 = 0
            while waitpid(channel.process, &status, 0) < 0 && errno == EINTR {}
        }
    }

    package func exchange(_ request: HubRequest) throws -> HubResponse {
        try channel.withLock { channel in
            let head = "\(request.method) \(request.path) \(request.body.count)\n"
            guard HubRelay.write(Array(head.utf8) + request.body, to: channel.requests) else {
                throw HubTransportError(reason: "the HTTP client (stockroom-serve --sync-relay) stopped")
            }
            return try HubRelay.readAnswer(from: channel.answers)
        }
    }
}

/// The relay's side (`stockroom-serve --sync-relay`) and the framing both sides share.
package enum HubRelay {
    /// The argument that makes `stockroom-serve` a relay.
    package static let argument = "--sync-relay"

    /// Serves requests from stdin to stdout through the transport `makeTransport` makes from
    /// the opening lines (URL, token, CA file), until stdin ends.
    package static func serve(_ makeTransport: (_ url: String, _ token: String, _ caFile: String?) throws -> any HubTransport) {
        signal(SIGPIPE, SIG_IGN)
        var input = LineReader(descriptor: STDIN_FILENO)
        guard let url = input.line(), let token = input.line(), let caFile = input.line() else { return }
        let transport = Result { try makeTransport(url, token, caFile.isEmpty ? nil : caFile) }
        while let head = input.line() {
            let parts = head.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3, let length = Int(parts[2]), let body = input.bytes(length) else { return }
            let answer: String
            var bytes: [UInt8] = []
            do {
                let response = try transport.get().exchange(HubRequest(method: parts[0], path: parts[1], body: body))
                answer = "ANSWER \(response.status) \(response.body.count)\n"
                bytes = response.body
            } catch let error as HubTransportError {
                answer = "FAIL \(error.isSetting ? "SETTING" : "RETRY") \(error.reason.split(whereSeparator: \.isNewline).joined(separator: " "))\n"
            } catch {
                answer = "FAIL RETRY \(String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " "))\n"
            }
            guard write(Array(answer.utf8) + bytes, to: STDOUT_FILENO) else { return }
        }
    }

    fileprivate static func readAnswer(from descriptor: Int32) throws -> HubResponse {
        var reader = LineReader(descriptor: descriptor)
        guard let head = reader.line() else {
            throw HubTransportError(reason: "the HTTP client (stockroom-serve --sync-relay) stopped without answering")
        }
        let parts = head.split(separator: " ", maxSplits: 2).map(String.init)
        if parts.first == "FAIL", parts.count == 3 {
            throw HubTransportError(reason: parts[2], isSetting: parts[1] == "SETTING")
        }
        guard parts.count == 3, parts[0] == "ANSWER", let status = Int(parts[1]), let length = Int(parts[2]),
              let body = reader.bytes(length) else {
            throw HubTransportError(reason: "the HTTP client (stockroom-serve --sync-relay) answered '\(head.prefix(80))'")
        }
        return HubResponse(status: status, body: body)
    }

    fileprivate static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// Reads lines and counted bytes from a descriptor, one byte of lookahead at most: each
/// answer is read whole and nothing of the next is taken, so a reader can be made per answer.
private struct LineReader {
    let descriptor: Int32

    mutating func line() -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = byte() else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    private mutating func byte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let got = Glibc.read(descriptor, &byte, 1)
            if got == 1 { return byte }
            if got < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
