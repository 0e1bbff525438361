import Foundation

/// A PostgreSQL server of the benchmark's own: `initdb` into a folder under /tmp, `pg_ctl start`
/// on a Unix socket in that folder only (no TCP), stopped and deleted by ``stop()``. The same
/// recipe as the tests' `PostgresServer` (Tests/Support), without its watchdog: a benchmark run
/// is attended, and a server left by a killed run is one `pg_ctl stop` away.
///
/// Server programs: `STOCKROOM_PG_BINDIR`, else the newest /usr/lib/postgresql/*/bin. `initdb`
/// and `postgres` refuse to run as root; as root they run as the `postgres` account
/// (`STOCKROOM_PG_USER`) through `setpriv`, in a folder that account owns. The benchmark connects
/// as the superuser role `stockroom` with trust authentication over the private socket.
///
/// The server keeps PostgreSQL's default durability (fsync, synchronous_commit, full-page
/// writes), as a user's server would; `--locale=C` so that names sort by bytes, as in SQLite.
final class ThrowawayPostgres {
    static let superuser = "stockroom"
    let directory: URL
    let port = 5432
    var socketDirectory: String { directory.appending(path: "socket").path }
    var dataDirectory: String { directory.appending(path: "data").path }
    var logPath: String { directory.appending(path: "server.log").path }
    private let binDirectory: String
    private let account: (uid: uid_t, gid: gid_t)?
    private var running = false

    init() throws {
        let environment = ProcessInfo.processInfo.environment
        let debian = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? []).compactMap { Int($0) }.sorted(by: >)
        let candidates = (environment["STOCKROOM_PG_BINDIR"].map { [$0] } ?? []) + versions.map { "\(debian)/\($0)/bin" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }) else {
            throw BenchmarkError(message: "no PostgreSQL server programs (initdb) found; run scripts/setup.sh --tests, or set STOCKROOM_PG_BINDIR")
        }
        binDirectory = found
        if geteuid() == 0 {
            let name = environment["STOCKROOM_PG_USER"] ?? "postgres"
            guard let entry = getpwnam(name) else {
                throw BenchmarkError(message: "running as root, and there is no '\(name)' account to run the PostgreSQL server as")
            }
            account = (entry.pointee.pw_uid, entry.pointee.pw_gid)
        } else {
            account = nil
        }
        // Short: a Unix socket path must fit in 107 bytes.
        directory = URL(fileURLWithPath: "/tmp").appending(path: "stockroom-bench-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appending(path: "socket"), withIntermediateDirectories: true)
        try giveToServerAccount(directory.path)
        try giveToServerAccount(socketDirectory)
        do {
            try runAsServer("initdb", ["-D", dataDirectory, "-U", Self.superuser, "--auth=trust", "-E", "UTF8", "--locale=C"])
            let settings = "\n# stockroom benchmarks\nlisten_addresses = ''\nport = \(port)\nunix_socket_directories = '\(socketDirectory)'\n"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dataDirectory + "/postgresql.conf"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(settings.utf8))
            try handle.close()
            try runAsServer("pg_ctl", ["start", "-w", "-t", "120", "-D", dataDirectory, "-l", logPath])
            running = true
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// A connection URI for `database` over the Unix socket, as the superuser.
    func uri(database: String) -> String {
        "postgresql://\(Self.superuser)@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// The server's version line (`postgres --version`), for the report.
    var version: String {
        (try? output(of: binDirectory + "/postgres", ["--version"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "PostgreSQL"
    }

    /// Stops the server (fast shutdown) and deletes its folder.
    func stop() {
        if running { try? runAsServer("pg_ctl", ["stop", "-D", dataDirectory, "-m", "fast", "-w", "-t", "60"]) }
        running = false
        try? FileManager.default.removeItem(at: directory)
    }

    private func giveToServerAccount(_ path: String) throws {
        guard let account else { return }
        guard chown(path, account.uid, account.gid) == 0 else {
            throw BenchmarkError(message: "chown \(path) to the server account failed: errno \(errno)")
        }
    }

    /// Runs a server program (as the server account when root), its output into a file, and
    /// waits for it with waitpid(). Not Foundation's `Process`: it learns that a child ended when
    /// a descriptor the child inherited closes, and the postmaster `pg_ctl start` leaves running
    /// inherits it, so `waitUntilExit` would never return.
    private func runAsServer(_ tool: String, _ arguments: [String]) throws {
        let executable = binDirectory + "/" + tool
        // Started in the server's folder, which the server account can read (this process's
        // own working directory may not be).
        let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + (account.map { ["/usr/bin/setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)", "--init-groups", "--", executable] }
            ?? [executable]) + arguments
        let outputPath = directory.appending(path: "\(tool).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError(message: "cannot run \(command[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw BenchmarkError(message: "\(tool) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)\(log)")
        }
    }

    private func output(of executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
