// Entry point: parse, run, and turn every failure into one line on stderr and a documented
// exit code (see Failure.swift).
import ArgumentParser
import FoundationEssentials
import Glibc

StartUp.ignoreFatalSignals()
do {
    let arguments = GlobalOptions.hoisted(try StartUp.arguments())
    var command = try Stockroom.parseAsRoot(arguments)
    try command.run()
} catch {
    exit(Failure.report(error))
}
