import ArgumentParser
import StockroomStore

/// `stockroom serve`: runs the web server, a program of its own (``ServerProgram``), with the
/// arguments as typed. The server is not linked into `stockroom`, so that no other command pays
/// for Hummingbird and SwiftNIO at start-up (BENCHMARKS.md, "Start-up, third round").
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the inventory as web pages and a JSON API.",
        discussion: """
            Runs \(ServerProgram.name), installed next to stockroom, with these arguments \
            (`stockroom serve --help` lists its options); its output, exit code and signals are \
            its own. Exit code \(Failure.Code.unavailable.rawValue) when it is missing or cannot be run.
            """
    )

    /// Everything after `serve`: the server parses it.
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp(
        "The server's options, passed through unchanged (`stockroom serve --help` lists them).", valueName: "option"))
    var arguments: [String] = []

    func run() throws {
        try ServerProgram.replaceProcess(arguments: arguments)
    }

    /// The server's arguments when the command line (options before the command already moved
    /// after it) is `serve ARGS...` or `help serve`, else nil. main.swift hands these over before
    /// any parsing: ArgumentParser answers `--help`, `-h` and `help serve` itself even in a
    /// `.captureForPassthrough` argument, with this stub's help instead of the server's options.
    static func serverArguments(for arguments: [String]) -> [String]? {
        let name = configuration.commandName
        if arguments.first == name { return Array(arguments.dropFirst()) }
        if arguments.count >= 2, arguments[0] == "help", arguments[1] == name { return ["--help"] }
        return nil
    }
}
