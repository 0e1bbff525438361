// Entry point of `stockroom-serve`, the program `stockroom serve` runs (execv: its arguments,
// stdout, stderr, exit code and signals are this process's own): parse, serve, and turn every
// failure into one line on stderr and a documented exit code, as `stockroom` does.
import ArgumentParser
import Glibc
import StockroomHTTP
import StockroomStore

StartUp.ignoreFatalSignals()
// `stockroom sync --hub http(s)://…` runs this program as its HTTP client (RelayTransport):
// `stockroom` itself links none, so that no other command pays for one at start-up.
if CommandLine.arguments.dropFirst().first == HubRelay.argument {
    HubRelay.serve { url, token, caFile in try HTTPHubTransport(url: url, token: token, caFile: caFile) }
    exit(0)
}
do {
    var command = try ServeCommand.parseAsRoot(try StartUp.arguments())
    try command.run()
} catch {
    // ArgumentParser's own errors, help and version, read as `stockroom`'s are (Stockroom.swift).
    exit(Failure.report(error, parser: Failure.Parser(exitStatus: { ServeCommand.exitCode(for: $0).rawValue },
                                                      message: { ServeCommand.message(for: $0) }) {
        ServeCommand.completeForDisplay()
        print(ServeCommand.fullMessage(for: $0))
    }))
}
