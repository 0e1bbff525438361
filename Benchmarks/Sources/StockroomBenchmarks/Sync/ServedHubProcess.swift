import Foundation

/// W15's `stockroom serve`, started and stopped by the harness: the server a served hub's
/// replicas reach (`sync --hub http://127.0.0.1:PORT/`), on a SQLite file or a PostgreSQL URI.
///
/// posix_spawn and waitpid rather than Foundation's `Process`, as ``Harness/timeProcess(_:_:)``
/// does; the server's one stdout line (its URL) is read from a pipe to know that it listens,
/// and its access log (stderr) goes to a file.
final class ServedHubProcess {
    let stockroom: String
    let tokenFile: String
    let logPath: String
    /// The port every start listens on: chosen once, so that a side's command line is known
    /// before its server starts (the sides are prepared fresh for every run).
    let port: Int
    private var pid: pid_t = 0
    private var stdout: Int32 = -1

    init(stockroom: String, tokenFile: String, logPath: String) throws {
        self.stockroom = stockroom
        self.tokenFile = tokenFile
        self.logPath = logPath
        port = try Self.freePort()
    }

    deinit { stop() }

    /// The hub's URL as `sync --hub` takes it.
    var url: String { "http://127.0.0.1:\(port)/" }

    /// Starts the server on `database` (stopping one that runs) and returns once it listens.
    func start(database: String) throws {
        stop()
        var output: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw BenchmarkError(message: "pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addclose(&actions, output[0])
        posix_spawn_file_actions_addclose(&actions, output[1])
        let arguments = [stockroom, "serve", "--db", database, "--port", String(port), "--token-file", tokenFile]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, stockroom, &actions, nil, argv, environ)
        close(output[1])
        guard spawned == 0 else {
            close(output[0])
            pid = 0
            throw BenchmarkError(message: "cannot run \(stockroom) serve: error \(spawned)")
        }
        stdout = output[0]
        // The URL line, printed once the server listens; end of file means it stopped.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != UInt8(ascii: "\n") {
            let count = read(stdout, &byte, 1)
            if count == 1 { line.append(byte); continue }
            if count < 0 && errno == EINTR { continue }
            stop()
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw BenchmarkError(message: "stockroom serve --db \(database) stopped before listening: \(log.suffix(500))")
        }
    }

    /// Stops the server (SIGTERM, as a service manager would) and waits for it.
    func stop() {
        guard pid != 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        pid = 0
        close(stdout)
        stdout = -1
    }

    /// Empties the access log (the server appends to it), so that it holds what follows.
    func clearLog() { truncate(logPath, 0) }

    /// Whether `child`, reaped by a caller waiting for any child, was this server.
    func isServer(_ child: pid_t) -> Bool { child == pid }

    /// A port nothing listens on now, from the kernel (bind to port 0, read it back, close).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError(message: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw BenchmarkError(message: "cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// W15's page client: `Benchmarks/Serve/page_latency.py` at the harness's (normal) priority,
/// requesting one page back to back on one connection until it is interrupted, then the
/// latency of every request it made. (Not `wrk --latency`: its percentiles add, for each slow
/// request, the requests an open-loop client would have sent meanwhile, so that one stall of
/// 3.7 s made its p99 3.4 s.)
struct PageClient {
    struct Latency {
        let requests: Int
        let p50: Double
        let p99: Double
        let max: Double
    }

    let url: String
    let token: String
    let outputPath: String

    /// The script, found from this source file's place in the repository.
    private static let script = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../../Serve/page_latency.py").standardizedFileURL.path

    /// Starts the client; `finish(_:)` interrupts it and reads its figures.
    func start(seconds: Int = 3600) throws -> pid_t {
        try Self.spawn(["/usr/bin/python3", Self.script, url, token, String(seconds)], output: outputPath, errors: outputPath)
    }

    /// Stops the client with SIGINT (it then prints what it measured), or waits for its end.
    func finish(_ pid: pid_t, interrupt: Bool = true) throws -> Latency {
        if interrupt { kill(pid, SIGINT) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        var fields: [String: Double] = [:]
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        guard status == 0, let pages = fields["pages"], let p50 = fields["p50_ms"], let p99 = fields["p99_ms"],
              let max = fields["max_ms"] else {
            throw BenchmarkError(message: "the page client printed no latencies: \(text.suffix(500))")
        }
        return Latency(requests: Int(pages), p50: p50 / 1000, p99: p99 / 1000, max: max / 1000)
    }

    /// Starts a process (stdout into `output`, stderr into `errors`, each truncated; the same
    /// file for both shares it) without waiting for it.
    static func spawn(_ arguments: [String], output: String, errors: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if errors == output {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError(message: "cannot run \(arguments[0]): error \(spawned)") }
        return pid
    }
}
