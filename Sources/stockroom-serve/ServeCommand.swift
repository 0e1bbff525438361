import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomServer
import StockroomStore

/// `stockroom serve`: the web pages and JSON API over the same database. Thin: it reads the
/// options, opens the pool and hands over to ``StockroomServer``. The root command of the
/// `stockroom-serve` program, which `stockroom serve` runs; named as users type it.
struct ServeCommand: ParsableCommand {
    /// The version is completed by ``completeForDisplay()``, as `stockroom`'s is.
    nonisolated(unsafe) static var configuration = CommandConfiguration(
        commandName: "stockroom serve",
        abstract: "Serve the inventory as web pages and a JSON API.",
        discussion: """
            Listens on 127.0.0.1 (port 8080 unless --port says; 0 picks a free one) and prints \
            the URL to open as the only line on stdout; one access-log line per request goes \
            to stderr. Bound to anything but loopback, a token is required: it is generated \
            (or read from --token-file or STOCKROOM_TOKEN) and printed in the URL. It is also a \
            hub for replicas (`stockroom sync --hub URL`, docs/replicas.md), which always \
            needs a token, on loopback too; --read-only lets replicas pull but not push. \
            SIGTERM or Ctrl-C stops it \
            (exit \(Failure.Code.success.rawValue)). The API is described at /api/openapi.json. \
            Exit codes: \(Failure.Code.usage.rawValue) bad options; \(Failure.Code.unavailable.rawValue) the address cannot be listened on.
            """,
        // Only needs to be non-empty here for ArgumentParser to offer --version.
        version: StockroomVersion.number
    )

    /// `stockroom serve --version` prints what `stockroom --version` does: completed only when
    /// help or the version is printed (main.swift), as `stockroom`'s is.
    static func completeForDisplay() {
        configuration.version = StockroomVersion.line
    }

    // `--db` and `--busy-timeout` as `stockroom`'s commands declare them; ``DatabaseChoice``
    // holds their rules and opens the database.
    @Option(name: .long, help: ArgumentHelp(DatabaseChoice.databaseHelp, valueName: "path"), completion: .file())
    var db: String?

    @Option(name: .long, help: ArgumentHelp(DatabaseChoice.busyTimeoutHelp, valueName: "seconds"))
    var busyTimeout: Double = DatabaseChoice.defaultBusyTimeout

    var database: DatabaseChoice { DatabaseChoice(db: db, busyTimeout: busyTimeout) }

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 lets the system pick one.", valueName: "n"))
    var port = 8080

    @Option(name: .customLong("allowed-host"), help: ArgumentHelp(
        "Also accept requests whose Host is this name (or name:port), e.g. a name that points at this machine.", valueName: "name"))
    var allowedHosts: [String] = []

    @Option(help: ArgumentHelp("Read the token from this file, else from STOCKROOM_TOKEN (off loopback one is generated when neither is given; sync always needs one).", valueName: "file"), completion: .file())
    var tokenFile: String?

    @Flag(help: "Open the database read-only and refuse every change (405).")
    var readOnly = false

    @Option(help: ArgumentHelp("The access log's format: text or json.", valueName: "format"))
    var logFormat = "text"

    @Option(help: ArgumentHelp("The largest import upload, in MiB.", valueName: "mib"))
    var importLimit = ServerConfiguration.defaultImportBodyLimit >> 20

    func validate() throws {
        if let problem = database.problem { throw ValidationError(problem) }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard ServerConfiguration.LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json")
        }
        guard (1...65_536).contains(importLimit) else { throw ValidationError("--import-limit must be between 1 and 65536 (MiB)") }
        if host.isEmpty { throw ValidationError("--host must not be empty") }
        if allowedHosts.contains(where: \.isEmpty) { throw ValidationError("--allowed-host must not be empty") }
    }

    func run() throws {
        let configuration = ServerConfiguration(
            host: host, port: port, allowedHosts: allowedHosts, token: try token(), readOnly: readOnly,
            logFormat: ServerConfiguration.LogFormat(rawValue: logFormat) ?? .text,
            importBodyLimit: importLimit << 20)
        let location = readOnly ? database.resolvedLocation() : database.locationForWriting()
        do {
            try StockroomServer.serve(
                configuration: configuration, location: location,
                busyTimeoutMilliseconds: database.busyTimeoutMilliseconds,
                shutdownSeconds: ServeCommand.shutdownSeconds
            ) { url in
                StandardStream.write(url + "\n", to: STDOUT_FILENO)
            }
        } catch let failure as StockroomServer.ListenFailure {
            throw Failure.Message(code: .unavailable, description: "cannot listen on \(host):\(port): \(failure.underlying)")
        }
    }

    /// How long SIGTERM or SIGINT waits for the requests in flight before the process exits
    /// anyway (a request waiting on a busy database could otherwise hold it for --busy-timeout).
    static let shutdownSeconds = 10

    /// The token: the file's or STOCKROOM_TOKEN's (trimmed); else none on loopback (where
    /// sync is then refused: it always needs one), and a new one elsewhere.
    private func token() throws -> String? {
        if let token = try TokenSource.token(file: tokenFile) { return token }
        return ServerConfiguration.isLoopback(host) ? nil : ServerConfiguration.generatedToken()
    }
}
