// Entry point: parse, run, and turn every failure into one line on stderr and a documented
// exit code (see Failure.swift).
import ArgumentParser
import Foundation

do {
    let arguments = GlobalOptions.hoisted(Array(CommandLine.arguments.dropFirst()))
    var command = try Stockroom.parseAsRoot(arguments)
    try command.run()
} catch {
    exit(Failure.report(error))
}
