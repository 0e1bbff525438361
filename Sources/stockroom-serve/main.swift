// Entry point of `stockroom-serve`, the program `stockroom serve` runs (execv: its arguments,
// stdout, stderr, exit code and signals are this process's own): parse, serve, and turn every
// failure into one line on stderr and a documented exit code, as `stockroom` does.
import ArgumentParser
import Glibc
import StockroomStore

StartUp.ignoreFatalSignals()
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
