import ArgumentParser
import Foundation
@testable import stockroom
import StockroomStore
import StockroomTestSupport
import Testing

/// The fast path (Sources/stockroom/FastPath) parses `--version`, `items list` and `items show`
/// without ArgumentParser. These tests hold it to ArgumentParser's meaning: whatever it accepts,
/// ArgumentParser accepts too and reads the same way, and the binary prints the same bytes on
/// both streams with the same exit code either way (`STOCKROOM_PARSER=argument-parser` turns
/// the fast path off). Anything it does not accept is ArgumentParser's to parse and report.
@Suite struct FastPathTests {
    /// What ArgumentParser makes of `arguments`, in the fast path's terms; nil when it refuses
    /// them or they name another command.
    static func argumentParserCommand(for arguments: [String]) -> FastPath.Command? {
        let parsed: ParsableCommand
        do {
            parsed = try Stockroom.parseAsRoot(arguments)
        } catch {
            // `--version` is reported as an error that means success.
            return Stockroom.exitCode(for: error) == .success && arguments == ["--version"] ? .version : nil
        }
        switch parsed {
        case let list as ListItems: return .list(list.query, list.format, list.database.choice)
        case let show as ShowItem: return .show(show.item.id, show.format, show.database.choice)
        default: return nil
        }
    }

    /// Command lines the fast path must take, and what they mean.
    static let accepted: [[String]] = [
        ["--version"],
        ["items", "list"],
        ["items", "list", "--limit", "20", "--format", "json"],
        ["items", "list", "--limit", "20", "--format", "json", "--db", "w6.sqlite"],
        ["items", "list", "--limit=20", "--format=csv", "--db=w6.sqlite", "--busy-timeout", "0.5"],
        ["items", "list", "--status", "out-of-stock", "--color", "red", "--search", "lamp", "--offset", "3"],
        ["items", "list", "--back-order", "--search", "list"],
        ["items", "list", "--in-stock", "--format", "table"],
        ["items", "list", "--search", "a=b", "--limit", "+7"],
        ["items", "show", "0123", "--format", "json"],
        ["items", "show", "--db", "x.sqlite", "01234567-89ab-cdef-0123-456789abcdef"],
    ]

    @Test(arguments: accepted)
    func takesTheHotCommandsAndReadsThemAsArgumentParserDoes(_ arguments: [String]) throws {
        let fast = try #require(FastPath.command(for: arguments), "\(arguments) was not taken")
        #expect(fast == Self.argumentParserCommand(for: arguments), "\(arguments)")
    }

    /// Command lines the fast path must leave to ArgumentParser: help, errors, and shapes whose
    /// meaning ArgumentParser decides by rules of its own.
    static let declined: [[String]] = [
        [], ["--help"], ["-h"], ["help"], ["items"], ["items", "list", "--help"], ["items", "list", "-h"],
        ["--version", "--db", "x"], ["items", "add", "--name", "x"], ["items", "history", "0123"],
        ["items", "list", "--limit"], ["items", "list", "--limit", "-1"], ["items", "list", "--limit=-1"],
        ["items", "list", "--limit", "x"], ["items", "list", "--limit", "1", "--limit", "2"],
        ["items", "list", "--offset", "-3"], ["items", "list", "--format", "yaml"],
        ["items", "list", "--status", "lost"], ["items", "list", "--color", "purple"],
        ["items", "list", "--status", "in-stock", "--in-stock"], ["items", "list", "--in-stock", "--back-order"],
        ["items", "list", "--in-stock=yes"], ["items", "list", "--search", ""], ["items", "list", "--search="],
        ["items", "list", "--search", "-x"], ["items", "list", "--db", ""], ["items", "list", "--busy-timeout", "4000"],
        ["items", "list", "--busy-timeout", "nan"], ["items", "list", "--", "--limit", "1"],
        ["items", "list", "extra"], ["items", "list", "--lim", "1"], ["items", "list", "-l", "1"],
        ["items", "show"], ["items", "show", "zz"], ["items", "show", "0123", "4567"],
        ["items", "show", "0123", "--format", "csv"], ["items", "show", "-0123"],
        ["items", "list", "--experimental-dump-help"], ["items", "list", "--generate-completion-script", "bash"],
    ]

    @Test(arguments: declined)
    func leavesEverythingElseToArgumentParser(_ arguments: [String]) {
        #expect(FastPath.command(for: arguments) == nil, "\(arguments) was taken")
    }

    /// Random command lines from tokens near the edges of both parsers: whatever the fast path
    /// takes, ArgumentParser reads the same. (Fixed seed: a failure names the line to replay.)
    @Test func agreesWithArgumentParserOnGeneratedCommandLines() {
        let pool = ["--limit", "--offset", "--format", "--status", "--color", "--search", "--db", "--busy-timeout",
                    "--in-stock", "--out-of-stock", "--back-order", "--limit=3", "--format=json", "--status=on-back-order",
                    "--db=f.sqlite", "--busy-timeout=2", "--color=blue", "--search=x", "json", "csv", "table", "in-stock",
                    "red", "7", "0", "-1", "+2", "1e3", "inf", "0x10", "", "-", "--", "-h", "--help", "help", "list",
                    "show", "items", "01234", "abcd", "f.sqlite", "Lamp", "a b", "--version", "=", "--=x"]
        var generator = SeededGenerator(seed: 21)
        var taken = 0
        for _ in 0..<3_000 {
            let head: [String] = switch generator.next() % 3 { case 0: ["items", "list"]; case 1: ["items", "show"]; default: [] }
            let tail = (0..<Int(generator.next() % 6)).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            let arguments = head + tail
            guard let fast = FastPath.command(for: arguments) else { continue }
            taken += 1
            #expect(fast == Self.argumentParserCommand(for: arguments), "\(arguments)")
        }
        #expect(taken > 100, "too few generated command lines were taken to mean anything: \(taken)")
    }

    /// The whole binary both ways: the same stdout, stderr and exit code, for command lines the
    /// fast path takes (including ones that fail at run time) and ones it declines.
    @Test func theBinaryPrintsTheSameBytesEitherWay() throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("items", "add", "--name", "Lamp \"A\"", "--quantity", "2", "--color", "red").status == 0)
        #expect(try database.stockroom("items", "add", "--name", "Desk", "--out-of-stock", "--back-order").status == 0)
        let id = try #require(database.stockroom("items", "list", "--format", "csv").lines.dropFirst().first?.prefix(8))
        let missing = database.directory.path("missing.sqlite")
        let lines: [[String]] = [
            ["--version"], ["--help"], ["items", "list", "--help"],
            ["items", "list"], ["items", "list", "--limit", "20", "--format", "json"], ["items", "list", "--format", "csv"],
            ["items", "list", "--search", "AMP", "--format", "json"], ["items", "list", "--back-order"],
            ["items", "list", "--status", "in-stock", "--color", "red", "--limit=1", "--offset=0"],
            ["items", "show", String(id)], ["items", "show", String(id), "--format", "json"],
            ["items", "show", "ffff"], ["items", "show", "zz"], ["items", "list", "--limit", "-1"],
            ["items", "list", "--format", "yaml"], ["items", "list", "--search", ""],
            ["items", "list", "--db", missing], ["items", "show", "0000", "--db", missing],
            ["items", "list", "--db", database.directory.url.path]
        ]
        for line in lines {
            let fast = try database.stockroom(arguments: line)
            let slow = try database.stockroom(arguments: line, environment: ["STOCKROOM_PARSER": "argument-parser"])
            #expect(fast.status == slow.status && fast.stdout == slow.stdout && fast.stderr == slow.stderr,
                    "\(line):\nfast path: \(fast)\nArgumentParser: \(slow)")
        }
    }

    /// Which parser ran is observable (`STOCKROOM_PARSER=trace`), so a change that sends the
    /// scripts' commands back through ArgumentParser fails here rather than in a benchmark.
    @Test func theHotCommandsTakeTheFastPath() throws {
        let database = CLIDatabase()
        #expect(try database.stockroom("items", "add", "--name", "Lamp", "--quantity", "2").status == 0)
        let trace = ["STOCKROOM_PARSER": "trace"]
        let list = try Processes.stockroom(["--db", database.path, "items", "list", "--limit", "20", "--format", "json"], environment: trace)
        #expect(list.status == 0 && list.output.contains("\"Lamp\""), "\(list)")
        #expect(list.stderr == "stockroom: parsed by the fast path\n", "\(list)")
        let version = try Processes.stockroom(["--version"], environment: trace)
        #expect(version.stderr == "stockroom: parsed by the fast path\n", "\(version)")
        let add = try database.stockroom(arguments: ["items", "add", "--name", "Mug", "--quantity", "1"], environment: trace)
        #expect(add.status == 0 && add.stderr == "stockroom: parsed by ArgumentParser\n", "\(add)")
    }
}
