import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// `stockroom serve` runs `stockroom-serve`, a program of its own: `stockroom` holds none of the
/// web server (so no other command pays for it at start-up), finds the server next to itself,
/// and fails in one line when it is not there. The server itself is tested through
/// `stockroom serve` by ServeCommandTests and the other Serve suites.
@Suite struct ServeProgramTests {
    /// Symbols whose mangled names carry one of these module prefixes are SwiftNIO's or
    /// Hummingbird's (`$s7NIOCore...`, `$s11Hummingbird...`).
    static let serverModules = ["7NIOCore", "8NIOPosix", "11Hummingbird"]

    /// The defined symbols of `executable` that belong to the server's modules, as `nm` lists them.
    static func serverSymbols(in executable: String) throws -> (count: Int, all: Int, sample: [String]) {
        let result = try Processes.run("/usr/bin/nm", ["--defined-only", executable], timeoutSeconds: 600)
        #expect(result.status == 0, "nm \(executable): \(result.stderr)")
        let matching = result.lines.filter { line in serverModules.contains { line.contains($0) } }
        return (matching.count, result.lines.count, Array(matching.prefix(5)))
    }

    @Test func stockroomHoldsNoWebServerCodeAndStockroomServeDoes() throws {
        let stockroom = try Self.serverSymbols(in: Processes.stockroomPath)
        #expect(stockroom.all > 1000, "nm listed too little to be believed: \(stockroom.all) symbols")
        #expect(stockroom.count == 0, "stockroom links SwiftNIO or Hummingbird: \(stockroom.sample)")
        // The same search finds them in the server's program: the check can fail.
        let server = try Self.serverSymbols(in: Processes.serverPath)
        #expect(server.count > 100, "no NIO or Hummingbird symbols found in \(Processes.serverPath)")
    }

    @Test func stockroomServeWithoutItsProgramFailsInOneLineWith69() throws {
        let directory = TemporaryDirectory()
        let copy = directory.path("stockroom")
        try FileManager.default.copyItem(atPath: Processes.stockroomPath, toPath: copy)
        let missing = try Processes.run(copy, ["serve", "--port", "0", "--db", directory.path("inv.sqlite")])
        #expect(missing.status == Failure.Code.unavailable.rawValue, "\(missing)")
        #expect(missing.stdout.isEmpty, "\(missing)")
        #expect(missing.stderr == "error: cannot run the web server \(directory.path("stockroom-serve")): No such file or directory (stockroom-serve is installed next to stockroom; see the README, \"Install\")\n", "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("inv.sqlite")), "nothing was done")

        // There but not executable: the same line, with the reason.
        #expect(FileManager.default.createFile(atPath: directory.path("stockroom-serve"), contents: Data("#!/bin/sh\n".utf8),
                                               attributes: [.posixPermissions: 0o644]))
        let refused = try Processes.run(copy, ["serve", "--help"])
        #expect(refused.status == Failure.Code.unavailable.rawValue, "\(refused)")
        #expect(refused.stderr.hasPrefix("error: cannot run the web server \(directory.path("stockroom-serve")): Permission denied"), "\(refused)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
    }

    @Test func aLinkToStockroomElsewhereFindsTheServerBesideTheRealBinary() throws {
        // /proc/self/exe, not argv[0]: a link in another folder (as in /usr/local/bin) still
        // reaches the server, whose own validation answers.
        let directory = TemporaryDirectory()
        let link = directory.path("stockroom")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Processes.stockroomPath)
        let result = try Processes.run(link, ["serve", "--port", "70000"])
        #expect(result.status == Failure.Code.usage.rawValue, "\(result)")
        #expect(result.stderr == "error: --port must be between 0 and 65535\n", "\(result)")
    }

    @Test(arguments: [["serve", "--help"], ["serve", "-h"], ["help", "serve"], ["--db", "x.sqlite", "serve", "--help"]])
    func helpForServeIsTheServersOwn(arguments: [String]) throws {
        let result = try Processes.stockroom(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("USAGE: stockroom serve [--db <path>] [--busy-timeout <seconds>] [--host <address>] [--port <n>]"), "\(result)")
        for option in ["--allowed-host <name>", "--token-file <file>", "--read-only", "--log-format <format>", "--import-limit <mib>"] {
            #expect(result.stdout.contains(option), "\(option) missing: \(result)")
        }
    }

    @Test func stockroomHelpListsServeWithItsAbstract() throws {
        let result = try Processes.stockroom(["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("  serve                   Serve the inventory as web pages and a JSON API."), "\(result)")
    }

    @Test func serveVersionIsStockroomsVersion() throws {
        let version = try Processes.stockroom(["--version"])
        let serve = try Processes.stockroom(["serve", "--version"])
        #expect(serve.status == 0, "\(serve)")
        #expect(serve.stdout == version.stdout, "\(serve)")
        #expect(version.stdout.hasPrefix("stockroom "), "\(version)")
    }
}
