import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server started by the tests themselves: `initdb` into a temporary
/// folder, `pg_ctl start`, and removal when the test process ends. No test depends on a server
/// someone started by hand.
///
/// - Every server listens on a Unix socket in its own folder, so servers in parallel test
///   processes cannot collide whatever their port number. With `tcp: true` it also listens on
///   127.0.0.1, on a port the kernel reported free; if another process takes that port first,
///   the start fails with "could not bind" and is tried again on another port.
/// - Readiness is the server's own: `pg_ctl start -w` returns once the postmaster reports
///   "ready" in its pid file, then `pg_isready` must succeed. No fixed waits anywhere.
/// - `initdb` and `postgres` refuse to run as root (tests run as root in CI): when the test
///   process is root, every server command runs as an unprivileged account (`postgres` by
///   default, `STOCKROOM_PG_USER` to change it; scripts/setup.sh --tests makes sure it exists) through
///   `setpriv`, in a folder that account owns. The clients (libpq, `psql`) run as root and
///   connect as the superuser role `stockroom` with trust authentication over the socket.
/// - A watchdog process holds one end of a pipe whose other end only this process has: when
///   this process ends for any reason (even SIGKILL), the pipe closes and the watchdog stops the
///   server and deletes its folder. ``stop()`` closes the pipe early and waits for that cleanup.
///
/// ``shared`` starts one server per test process, lazily, for suites to share (a second or two
/// for `initdb`, once); tests isolate themselves with their own database or tables.
public final class PostgresServer: @unchecked Sendable {
    /// The superuser role the tests connect as.
    public static let superuser = "stockroom"

    /// The folder holding everything: `data/`, `socket/`, `server.log`.
    public let directory: URL
    /// The data directory.
    public var dataDirectory: String { directory.appending(path: "data").path }
    /// The folder of the server's Unix socket.
    public var socketDirectory: String { directory.appending(path: "socket").path }
    /// The server log (`pg_ctl -l`).
    public var logPath: String { directory.appending(path: "server.log").path }
    /// The port: part of the socket's file name, and the TCP port on 127.0.0.1 for TCP servers.
    public private(set) var port: Int
    /// Whether the server also listens on 127.0.0.1.
    public let listensOnTCP: Bool

    private let tools: PostgresTools
    private let watchdogInput: FileHandle
    private let lock = NSLock()
    private var stopped = false

    /// One server per test process, started on first use and removed when the process ends.
    public static var shared: PostgresServer {
        get throws { try sharedResult.get() }
    }
    private static let sharedResult = Result { try PostgresServer(label: "shared") }

    /// A connection URI for `database` over the Unix socket, as the superuser.
    public func socketURI(database: String = "postgres") -> String {
        "postgresql://\(PostgresServer.superuser)@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// A connection URI for `database` over TCP on 127.0.0.1 (TCP servers only).
    public func tcpURI(database: String = "postgres") -> String {
        "postgresql://\(PostgresServer.superuser)@127.0.0.1:\(port)/\(database)"
    }

    /// `host:port` on 127.0.0.1, for building multi-host URIs.
    public var tcpAddress: String { "127.0.0.1:\(port)" }

    /// Creates a new cluster with `initdb` and starts it.
    ///
    /// - Parameters:
    ///   - tcp: also listen on 127.0.0.1 (for replication and multi-host URIs).
    ///   - startOptions: `-c name=value` settings for this start only (they are not copied by
    ///     `pg_basebackup`, unlike `postgresql.conf`), e.g. `synchronous_standby_names`.
    ///   - dataFiles: files written into the data directory after `initdb`, before the start,
    ///     owned by the server's account with mode 0600 (a `pg_hba.conf` replacing initdb's,
    ///     a TLS certificate and key named by `ssl_cert_file`/`ssl_key_file` in `startOptions`).
    public convenience init(label: String = "server", tcp: Bool = false, startOptions: [String: String] = [:],
                            dataFiles: [String: String] = [:]) throws {
        let tools = try PostgresTools.discover()
        let directory = try PostgresServer.makeDirectory(label: label, tools: tools)
        let data = directory.appending(path: "data").path
        try tools.runAsServer("initdb", ["-D", data, "-U", PostgresServer.superuser, "--auth=trust",
                                         "-E", "UTF8", "--locale=C", "--no-sync"], in: directory)
        for (name, contents) in dataFiles {
            let path = data + "/" + name
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            guard chmod(path, 0o600) == 0 else { throw PostgresServerError("chmod \(path) failed: errno \(errno)") }
            try tools.giveToServerAccount(path)
        }
        try self.init(directory: directory, tools: tools, tcp: tcp, startOptions: startOptions)
    }

    /// Makes a streaming standby of `primary` with `pg_basebackup -R` over TCP and starts it.
    /// It follows the primary until promoted with ``promote()``.
    public static func standby(of primary: PostgresServer, label: String = "standby") throws -> PostgresServer {
        precondition(primary.listensOnTCP, "replication runs over TCP")
        let tools = try PostgresTools.discover()
        let directory = try makeDirectory(label: label, tools: tools)
        let data = directory.appending(path: "data").path
        try tools.runAsServer("pg_basebackup", ["-D", data, "-R", "--checkpoint=fast", "--no-sync",
                                                "-h", "127.0.0.1", "-p", String(primary.port), "-U", superuser,
                                                "-d", "application_name=\(label)"], in: directory)
        return try PostgresServer(directory: directory, tools: tools, tcp: true, startOptions: [:])
    }

    private init(directory: URL, tools: PostgresTools, tcp: Bool, startOptions: [String: String]) throws {
        self.directory = directory
        self.tools = tools
        self.listensOnTCP = tcp
        self.port = 5432
        watchdogInput = try PostgresServer.startWatchdog(directory: directory, tools: tools)
        try FileManager.default.createDirectory(atPath: directory.appending(path: "socket").path,
                                                withIntermediateDirectories: true)
        try tools.giveToServerAccount(directory.appending(path: "socket").path)
        do {
            try start(startOptions: startOptions)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// `pg_ctl start -w`, on a fresh free port for TCP servers, retried when another process
    /// took that port between the check and the bind.
    private func start(startOptions: [String: String]) throws {
        var attempts = 0
        while true {
            attempts += 1
            if listensOnTCP { port = try PostgresServer.freeLoopbackPort() }
            // Appended settings win over earlier ones, including those a base backup copied.
            var settings = [
                "listen_addresses": listensOnTCP ? "'127.0.0.1'" : "''",
                "port": String(port),
                "unix_socket_directories": "'\(socketDirectory)'",
                "fsync": "off", "full_page_writes": "off", "shared_buffers": "16MB",
                "max_connections": "100", "synchronous_standby_names": "''",
            ]
            for (name, value) in startOptions { settings[name] = value }
            let configuration = settings.keys.sorted().map { "\($0) = \(settings[$0]!)" }.joined(separator: "\n")
            let confPath = directory.appending(path: "data/postgresql.conf").path
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: confPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n# stockroom tests\n\(configuration)\n".utf8))
            try handle.close()
            do {
                try tools.runAsServer("pg_ctl", ["start", "-w", "-t", "120", "-D", dataDirectory, "-l", logPath],
                                      in: directory)
                break
            } catch {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                if listensOnTCP, attempts < 5, log.contains("could not bind") || log.contains("already in use") { continue }
                throw PostgresServerError("pg_ctl start failed: \(error)\nserver log:\n\(log)")
            }
        }
        // pg_ctl -w already waited for "ready"; pg_isready confirms the socket accepts.
        try tools.run("pg_isready", ["-q", "-h", socketDirectory, "-p", String(port)])
    }

    /// The postmaster's process id, from `postmaster.pid`.
    public func postmasterProcessID() throws -> pid_t {
        let text = try String(contentsOfFile: directory.appending(path: "data/postmaster.pid").path, encoding: .utf8)
        guard let first = text.split(separator: "\n").first, let pid = pid_t(first) else {
            throw PostgresServerError("unreadable postmaster.pid: \(text)")
        }
        return pid
    }

    /// Kills the server with SIGKILL, as losing its machine would: the postmaster and every
    /// server process at once (its process group: `pg_ctl` starts the postmaster as a session
    /// leader), no shutdown, no checkpoint, connections cut. Killing the postmaster alone is not
    /// enough: its backends would go on serving the connections they have, and their walsender
    /// go on streaming, until they notice. The shared-memory segment is removed too.
    public func kill() throws {
        let pidFile = try String(contentsOfFile: directory.appending(path: "data/postmaster.pid").path, encoding: .utf8)
        let pid = try postmasterProcessID()
        let target = getpgid(pid) == pid ? -pid : pid
        guard Glibc.kill(target, SIGKILL) == 0 else { throw PostgresServerError("kill \(target) failed: errno \(errno)") }
        // Line 7 holds "key id" of the SysV segment.
        let lines = pidFile.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > 6, let id = lines[6].split(separator: " ").last.flatMap({ Int32($0) }) {
            _ = shmctl(id, IPC_RMID, nil)
        }
    }

    /// Restarts the server (`pg_ctl restart -m fast`), as an upgrade or a host's reboot would:
    /// every connection is cut, and the server comes back on the same socket and port.
    public func restart() throws {
        try tools.runAsServer("pg_ctl", ["restart", "-m", "fast", "-w", "-t", "120", "-D", dataDirectory, "-l", logPath],
                              in: directory)
    }

    /// Stops the server (`pg_ctl stop -m fast`) and keeps its data, for ``startAgain()``: an
    /// outage, during which connecting fails.
    public func stopForOutage() throws {
        try tools.runAsServer("pg_ctl", ["stop", "-m", "fast", "-w", "-t", "120", "-D", dataDirectory], in: directory)
    }

    /// Starts the server stopped by ``stopForOutage()`` again, on the same socket and port.
    public func startAgain() throws {
        try tools.runAsServer("pg_ctl", ["start", "-w", "-t", "120", "-D", dataDirectory, "-l", logPath], in: directory)
    }

    /// Promotes a standby to primary and waits until it accepts writes (`pg_ctl promote -w`).
    public func promote() throws {
        try tools.runAsServer("pg_ctl", ["promote", "-w", "-t", "120", "-D", dataDirectory], in: directory)
    }

    /// Runs `sql` with `psql` (as a person would by hand) against `database`, stopping at the
    /// first error; returns what psql printed and how it exited.
    public func psql(_ sql: String, database: String = "postgres") throws -> ProcessResult {
        try Processes.run(tools.path("psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-d", socketURI(database: database)],
                          stdin: sql)
    }

    /// Stops the server (immediate shutdown) and deletes its folder, waiting for both. The
    /// same happens on its own when the test process ends.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        try? tools.runAsServer("pg_ctl", ["stop", "-D", dataDirectory, "-m", "immediate", "-w", "-t", "60"], in: directory)
        try? FileManager.default.removeItem(at: directory)
        try? watchdogInput.close()
    }

    // MARK: Set-up

    private static func makeDirectory(label: String, tools: PostgresTools) throws -> URL {
        // Short: a Unix socket path must fit in 107 bytes.
        let directory = URL(fileURLWithPath: "/tmp").appending(path: "stockroom-pg-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try tools.giveToServerAccount(directory.path)
        return directory
    }

    /// Starts the cleanup process: it waits for end-of-file on its standard input, then stops
    /// the server and removes the folder. It ignores the signals a Ctrl-C or a test runner's
    /// timeout sends to the process group, so that it outlives this process to clean up.
    ///
    /// It runs detached (a background subshell of a shell that exits at once) with every file
    /// descriptor but its standard input closed: Foundation's `Process` learns that a child
    /// ended when a socket the child inherited closes, so a long-lived process holding such a
    /// socket would hide the end of another child.
    private static func startWatchdog(directory: URL, tools: PostgresTools) throws -> FileHandle {
        var ends: [Int32] = [0, 0]
        // Close-on-exec at once (Glibc's pipe2 is not imported): no other child may inherit
        // the write end, or the pipe would stay open after this process ends.
        guard pipe(&ends) == 0 else { throw PostgresServerError("pipe failed: errno \(errno)") }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let readEnd = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let script = """
            (
                \(PostgresTools.closeInheritedDescriptors)
                trap '' INT TERM HUP
                cat >/dev/null
                "$@" stop -D "$DATA" -m immediate -w -t 60 >/dev/null 2>&1
                rm -rf "$ROOT"
            ) <&0 >/dev/null 2>&1 &
            exit 0
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "watchdog"] + tools.serverCommand("pg_ctl")
        var environment = ProcessInfo.processInfo.environment
        environment["DATA"] = directory.appending(path: "data").path
        environment["ROOT"] = directory.path
        process.environment = environment
        process.standardInput = readEnd
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        try process.run()
        process.waitUntilExit()
        try readEnd.close()
        return writeEnd
    }

    /// A TCP port on 127.0.0.1 that the kernel just reported free.
    private static func freeLoopbackPort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw PostgresServerError("socket failed: errno \(errno)") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard bound else { throw PostgresServerError("bind to 127.0.0.1:0 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a test server could not be set up.
public struct PostgresServerError: Error, CustomStringConvertible {
    /// What went wrong, with the tool's output.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Where the PostgreSQL server programs are, and how to run them as a non-root account.
struct PostgresTools: Sendable {
    /// The folder holding `initdb`, `pg_ctl`, `postgres`, `pg_basebackup`, `pg_isready`, `psql`.
    let binDirectory: String
    /// The account server programs run as when this process is root; nil otherwise.
    let serverAccount: (name: String, uid: uid_t, gid: gid_t)?

    func path(_ tool: String) -> String { binDirectory + "/" + tool }

    /// Finds the server programs: `STOCKROOM_PG_BINDIR`, else `pg_config --bindir` when it
    /// holds `initdb`, else the newest `/usr/lib/postgresql/*/bin` (Debian's layout), else `PATH`.
    static func discover() throws -> PostgresTools {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let configured = environment["STOCKROOM_PG_BINDIR"] { candidates.append(configured) }
        if let result = try? Processes.run("/bin/sh", ["-c", "pg_config --bindir"]), result.status == 0 {
            candidates.append(result.output)
        }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? [])
            .compactMap { Int($0) }.sorted(by: >)
        candidates += versions.map { "\(debian)/\($0)/bin" }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }) else {
            throw PostgresServerError("no PostgreSQL server programs (initdb) found; run scripts/setup.sh --tests, or set STOCKROOM_PG_BINDIR")
        }
        guard geteuid() == 0 else { return PostgresTools(binDirectory: found, serverAccount: nil) }
        let name = environment["STOCKROOM_PG_USER"] ?? "postgres"
        guard let entry = getpwnam(name) else {
            throw PostgresServerError("running as root, and there is no '\(name)' account to run the PostgreSQL server as; run scripts/setup.sh --tests, or set STOCKROOM_PG_USER")
        }
        return PostgresTools(binDirectory: found, serverAccount: (name, entry.pointee.pw_uid, entry.pointee.pw_gid))
    }

    /// The command line that runs `tool` as the server account.
    func serverCommand(_ tool: String) -> [String] {
        guard let account = serverAccount else { return [path(tool)] }
        return ["/usr/bin/setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--init-groups", "--", path(tool)]
    }

    /// Hands `path` to the server account (when this process is root).
    func giveToServerAccount(_ path: String) throws {
        guard let account = serverAccount else { return }
        guard chown(path, account.uid, account.gid) == 0 else {
            throw PostgresServerError("chown \(path) to \(account.name) failed: errno \(errno)")
        }
    }

    /// Shell code that closes every file descriptor above 2. Foundation's `Process` learns that a
    /// child ended when a socket the child inherited closes; the postmaster that `pg_ctl start`
    /// leaves running would otherwise inherit it and hide the end of `pg_ctl`.
    static let closeInheritedDescriptors = """
        for fd in /proc/self/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
        """

    /// Runs a server program as the server account, in `directory`; throws with its output when it fails.
    ///
    /// The program runs in a subshell with inherited descriptors closed, while the outer shell
    /// (which keeps them) waits for it: see ``closeInheritedDescriptors``.
    func runAsServer(_ tool: String, _ arguments: [String], in directory: URL) throws {
        let command = serverCommand(tool) + arguments
        let script = "( \(PostgresTools.closeInheritedDescriptors); exec \"$@\" ); exit $?"
        let result = try Processes.run("/bin/bash", ["-c", script, "server-command"] + command, workingDirectory: directory)
        guard result.status == 0 else { throw PostgresServerError("\(tool) \(arguments.joined(separator: " ")): \(result)") }
    }

    /// Runs a client program as this process's user; throws with its output when it fails.
    func run(_ tool: String, _ arguments: [String]) throws {
        let result = try Processes.run(path(tool), arguments)
        guard result.status == 0 else { throw PostgresServerError("\(tool) \(arguments.joined(separator: " ")): \(result)") }
    }
}
