// Entry point: parse, run, and turn every failure into one line on stderr and a documented
// exit code (Failure: StockroomStore's Program/Failure.swift; ArgumentParser's own errors are
// read in Stockroom.swift).
import ArgumentParser
import FoundationEssentials
import Glibc
import StockroomStore

StartUp.ignoreFatalSignals()
do {
    let arguments = GlobalOptions.hoisted(try StartUp.arguments())
    // `serve` is another program's (Commands/Serve/): its arguments go to it as typed, help included.
    if let serverArguments = ServeCommand.serverArguments(for: arguments) {
        try ServerProgram.replaceProcess(arguments: serverArguments)
    }
    // The commands scripts run most skip ArgumentParser's start-up cost (FastPath/FastPath.swift).
    let mode = FastPath.Mode.current
    if mode != .argumentParserOnly, let command = FastPath.command(for: arguments) {
        if mode == .trace { StandardError.write("stockroom: parsed by the fast path\n") }
        try command.run()
    } else {
        if mode == .trace { StandardError.write("stockroom: parsed by ArgumentParser\n") }
        var command = try Stockroom.parseAsRoot(arguments)
        try command.run()
    }
} catch {
    exit(Failure.report(error))
}
