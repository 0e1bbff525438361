import Foundation
import LibPQ

/// Connecting to the server with libpq's non-blocking calls (`PQconnectStart`,
/// `PQconnectPoll`), for two things `PQconnectdb` cannot give:
///
/// - **Our notice processor from the first byte.** `PQconnectdb` returns a connection only
///   once the startup is over, and until then libpq's default processor prints to stderr
///   whatever the server says that libpq reads as a notice: a server shutting down as the
///   client connects sends `FATAL: terminating connection` right after `ReadyForQuery`, which
///   libpq, idle by then, hands to the notice processor. With `PQconnectStart` the processor
///   is installed before anything is read, so stderr keeps its one `error:` line.
/// - **A limit on the wait.** A server that accepts the connection and never answers (hung,
///   or a socket held by a stuck process) made `PQconnectdb` wait forever when
///   `connect_timeout` was unset, its default. Here each host waits at most the connection's
///   `connect_timeout` (from the string, `PGCONNECT_TIMEOUT` or a service file), else
///   ``Connection/defaultConnectTimeoutSeconds``; `connect_timeout=0` waits forever, as in
///   libpq. As `PQconnectdb` does, a host that runs out of time is given up for the next one
///   of a multi-host string: libpq's polling interface has no call for that, so the
///   connection starts again with the hosts after it (the other addresses of that same host
///   name are skipped with it).
enum ConnectionStartup {
    /// Why a connection could not be made: libpq's message, and the hosts (`HOST:PORT`) that
    /// did not answer in time.
    struct Failure: Error {
        let message: String
        let timedOut: [String]
        let timeoutSeconds: Int?
        /// True when libpq's message only describes the hosts we gave up on.
        let onlyTimeouts: Bool

        /// One line: the hosts that did not answer in time, then what libpq said of the others.
        func describe(clean: (String) -> String) -> String {
            guard !timedOut.isEmpty else { return clean(message) }
            let seconds = timeoutSeconds.map { "\($0) s" } ?? "the time allowed"
            let what = "the server at \(timedOut.joined(separator: ", ")) did not answer within \(seconds) "
                + "(connect_timeout; set connect_timeout=SECONDS in the URI to wait longer)"
            return onlyTimeouts || message.isEmpty ? what : what + "; " + clean(message)
        }
    }

    /// A connection whose startup is over, with our notice processor installed.
    ///
    /// - Returns: nil when libpq could not allocate a connection.
    /// - Throws: ``Failure``.
    static func connect(_ connectionString: String, pq: LibPQTable) throws(Failure) -> OpaquePointer? {
        guard var connection = pq.PQconnectStart(connectionString) else { return nil }
        _ = pq.PQsetNoticeProcessor(connection, { _, _ in }, nil)
        let timeout = timeoutSeconds(of: connection, pq: pq)
        var timedOut: [String] = []
        while true {
            switch complete(connection, pq: pq, timeout: timeout) {
            case .connected:
                return connection
            case .failed:
                let message = pq.errorMessage(connection)
                pq.PQfinish(connection)
                throw Failure(message: message, timedOut: timedOut, timeoutSeconds: timeout, onlyTimeouts: false)
            case .timedOut(let host, let port):
                timedOut.append(port.isEmpty ? host : "\(host):\(port)")
                let next = startWithHostsAfter(host: host, port: port, of: connection, pq: pq)
                pq.PQfinish(connection)
                guard let next else {
                    throw Failure(message: "", timedOut: timedOut, timeoutSeconds: timeout, onlyTimeouts: true)
                }
                _ = pq.PQsetNoticeProcessor(next, { _, _ in }, nil)
                connection = next
            }
        }
    }

    private enum Outcome {
        case connected, failed
        case timedOut(host: String, port: String)
    }

    /// Polls a started connection until it is made, fails, or the host attempt runs out of time.
    private static func complete(_ connection: OpaquePointer, pq: LibPQTable, timeout: Int?) -> Outcome {
        if pq.PQstatus(connection) == CONNECTION_BAD { return .failed }
        var attempt: (socket: Int32, host: String, port: String)?
        var deadline: ContinuousClock.Instant?
        // libpq's rule: start as if PQconnectPoll had asked to wait for writing.
        var status = PGRES_POLLING_WRITING
        while true {
            switch status {
            case PGRES_POLLING_OK:
                return .connected
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let socket = pq.PQsocket(connection)
                guard socket >= 0 else { return .failed }
                let host = pq.PQhost(connection).map { String(cString: $0) } ?? ""
                let port = pq.PQport(connection).map { String(cString: $0) } ?? ""
                // A new socket or another host: libpq moved on (to the next address or host).
                if attempt?.socket != socket || attempt?.host != host || attempt?.port != port {
                    attempt = (socket, host, port)
                    deadline = timeout.map { ContinuousClock.now + .seconds($0) }
                }
                var descriptor = pollfd(fd: socket, events: Int16(status == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
                let ready = Glibc.poll(&descriptor, 1, milliseconds(until: deadline))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { return .timedOut(host: host, port: port) }
                status = pq.PQconnectPoll(connection)
            default:
                return .failed
            }
        }
    }

    /// Starts a connection with the options `connection` was started with, but only the hosts
    /// listed after `host`:`port`; nil when it was the last.
    private static func startWithHostsAfter(host: String, port: String, of connection: OpaquePointer,
                                            pq: LibPQTable) -> OpaquePointer? {
        guard let options = pq.PQconninfo(connection) else { return nil }
        defer { pq.PQconninfoFree(options) }
        var settings: [(String, String)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { settings.append((String(cString: keyword), String(cString: value))) }
            option += 1
        }
        func list(_ name: String) -> [String] {
            guard let value = settings.first(where: { $0.0 == name })?.1, !value.isEmpty else { return [] }
            return value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let hosts = list("host"), addresses = list("hostaddr"), ports = list("port")
        let count = max(hosts.count, addresses.count)
        // The entry libpq was trying: the first one naming this host (PQhost gives the name,
        // else the address) and port.
        let index = (0..<count).first { index in
            let name = index < hosts.count && !hosts[index].isEmpty ? hosts[index] : (index < addresses.count ? addresses[index] : "")
            let entryPort = ports.count == count ? ports[index] : (ports.first ?? "")
            return name == host && (entryPort.isEmpty || entryPort == port)
        }
        guard let index, index + 1 < count else { return nil }
        func rest(_ values: [String]) -> String? {
            values.count == count ? values[(index + 1)...].joined(separator: ",") : nil
        }
        var replaced: [String: String] = [:]
        replaced["host"] = rest(hosts)
        replaced["hostaddr"] = rest(addresses)
        if ports.count == count { replaced["port"] = rest(ports) }
        settings = settings.map { (name, value) in (name, replaced[name] ?? value) }
        let keywords = settings.map { strdup($0.0) } + [nil]
        let values = settings.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        return keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                pq.PQconnectStartParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
    }

    /// The connection's `connect_timeout` in seconds as libpq resolved it (the string, then
    /// `PGCONNECT_TIMEOUT`, then a service file), else the default; nil to wait forever (0 or less).
    static func timeoutSeconds(of connection: OpaquePointer, pq: LibPQTable) -> Int? {
        var value: String?
        if let options = pq.PQconninfo(connection) {
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "connect_timeout" {
                    value = option.pointee.val.map { String(cString: $0) }
                    break
                }
                option += 1
            }
            pq.PQconninfoFree(options)
        }
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty, let seconds = Int(text) else {
            return Connection.defaultConnectTimeoutSeconds
        }
        return seconds > 0 ? seconds : nil
    }

    /// poll(2)'s timeout: the milliseconds left until `deadline` (rounded up), -1 for none.
    private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline).components
        guard left.seconds >= 0 else { return 0 }
        let milliseconds = left.seconds * 1000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
