// Entry point: parse, run, and turn every failure into one line on stderr and a documented
// exit code (see Failure.swift).
import ArgumentParser
import Foundation

do {
    var command = try Stockroom.parseAsRoot()
    try command.run()
} catch {
    exit(Failure.report(error))
}
