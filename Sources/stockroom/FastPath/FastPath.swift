import Glibc
import Inventory
import StockroomStore

/// The commands scripts run most, parsed without ArgumentParser.
///
/// Before `run()`, swift-argument-parser builds every command's argument set by reflection and
/// asks the Swift runtime hundreds of "does this type conform?" questions, each answered by
/// scanning every conformance record in the binary: about 70% of the instructions of a whole
/// `items list --limit 20 --format json` (BENCHMARKS.md, "Issue 21: start-up"). For the few
/// shapes below, ``command(for:)`` reads the arguments itself and the command runs the same
/// code as its ArgumentParser twin (``ItemReads``, ``StockroomVersion``), so the output, the
/// errors and the exit codes are the same.
///
/// It takes only what it fully understands: each option at most once, values that do not start
/// with `-` and are not empty, values that parse and pass the same checks as the commands'
/// `validate()`. Anything else, including help and every usage error, returns nil and goes to
/// ArgumentParser, which prints its own messages. FastPathTests run a matrix of arguments both
/// ways and compare stdout, stderr and the exit code.
///
/// `STOCKROOM_PARSER=argument-parser` turns the fast path off (the tests compare the two ways;
/// an escape hatch should they ever differ); `STOCKROOM_PARSER=trace` writes which parser ran
/// as one line on stderr before the command's own output.
enum FastPath {
    /// A command the fast path runs.
    enum Command: Equatable {
        /// `stockroom --version`.
        case version
        /// `stockroom items list [options]`.
        case list(ItemQuery, OutputFormat, DatabaseChoice)
        /// `stockroom items show ID [options]`.
        case show(String, RecordFormat, DatabaseChoice)

        /// Runs the command; failures are thrown as the ArgumentParser twin throws them.
        func run() throws {
            switch self {
            case .version:
                Output.line(StockroomVersion.line)
            case .list(let query, let format, let database):
                try ItemReads.list(query, format: format, database: database)
            case .show(let id, let format, let database):
                try ItemReads.show(id, format: format, database: database)
            }
        }
    }

    /// What `STOCKROOM_PARSER` asks for.
    enum Mode {
        case normal, argumentParserOnly, trace

        static var current: Mode {
            guard let value = getenv("STOCKROOM_PARSER") else { return .normal }
            switch String(cString: value) {
            case "argument-parser": return .argumentParserOnly
            case "trace": return .trace
            default: return .normal
            }
        }
    }

    /// The command `arguments` (after ``GlobalOptions/hoisted(_:)``) ask for, when it is one
    /// the fast path runs exactly as ArgumentParser would; nil for anything else.
    static func command(for arguments: [String]) -> Command? {
        if arguments == ["--version"] { return .version }
        guard arguments.count >= 2, arguments[0] == "items" else { return nil }
        switch arguments[1] {
        case "list": return list(arguments.dropFirst(2))
        case "show": return show(arguments.dropFirst(2))
        default: return nil
        }
    }

    /// `items list`'s options, as `ListItems` declares them.
    private static func list(_ tokens: ArraySlice<String>) -> Command? {
        let statusFlags = ListItems.StatusFlag.allCases
        guard let scan = OptionScan(tokens,
                                    options: ["--db", "--busy-timeout", "--status", "--color", "--search",
                                              "--limit", "--offset", "--format"],
                                    flags: statusFlags.map(\.flagName),
                                    positionals: 0),
              let database = scan.database,
              scan.flags.count <= 1
        else { return nil }
        var query = ItemQuery()
        if let text = scan.value("--status") {
            guard scan.flags.isEmpty, let status = ItemQuery.StatusFilter(text: text) else { return nil }
            query.status = status
        }
        if let flag = scan.flags.first {
            guard let status = statusFlags.first(where: { $0.flagName == flag }) else { return nil }
            query.status = status.filter
        }
        if let text = scan.value("--color") {
            guard let color = Color(rawValue: text) else { return nil }
            query.color = color
        }
        query.nameContains = scan.value("--search")
        if let text = scan.value("--limit") {
            guard let limit = Int(text), limit >= 0 else { return nil }
            query.limit = limit
        }
        if let text = scan.value("--offset") {
            guard let offset = Int(text), offset >= 0 else { return nil }
            query.offset = offset
        }
        var format = OutputFormat.table
        if let text = scan.value("--format") {
            guard let chosen = OutputFormat(rawValue: text) else { return nil }
            format = chosen
        }
        return .list(query, format, database)
    }

    /// `items show`'s id and options, as `ShowItem` declares them.
    private static func show(_ tokens: ArraySlice<String>) -> Command? {
        guard let scan = OptionScan(tokens, options: ["--db", "--busy-timeout", "--format"], flags: [], positionals: 1),
              let database = scan.database,
              let id = scan.positionals.first,
              (try? IDPrefix.wellFormed(id, record: .item)) != nil
        else { return nil }
        var format = RecordFormat.table
        if let text = scan.value("--format") {
            guard let chosen = RecordFormat(rawValue: text) else { return nil }
            format = chosen
        }
        return .show(id, format, database)
    }
}
