// Entry point of `stockroom-serve`, the program `stockroom serve` runs (execv: its arguments,
// stdout, stderr, exit code and signals are this process's own): parse, serve, and turn every
// failure into one line on stderr and a documented exit code, as `stockroom` does.
import Glibc
import StockroomCommandLine

StartUp.ignoreFatalSignals()
do {
    var command = try ServeCommand.parseAsRoot(try StartUp.arguments())
    try command.run()
} catch {
    exit(Failure.report(error, root: ServeCommand.self))
}
