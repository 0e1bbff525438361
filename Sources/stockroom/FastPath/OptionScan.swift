/// A command line read by the fast path's strict rules (see ``FastPath``): long options with a
/// value (`--name value` or `--name=value`), flags (`--name`), and up to a number of positional
/// arguments. Whatever it does not accept makes the whole scan nil, so that ArgumentParser,
/// not this, decides what the command line means and how a mistake is reported.
import StockroomStore
struct OptionScan {
    /// Each option given and its value, in order.
    private(set) var values: [(name: String, value: String)] = []
    /// Each flag given, in order.
    private(set) var flags: [String] = []
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []

    /// Scans `tokens`; nil when one is not an option in `options` or a flag in `flags`, when a
    /// name appears twice, when a value is missing, empty or starts with `-` (ArgumentParser
    /// has rules of its own for those), on `--`, or past `positionals` positional arguments.
    init?(_ tokens: ArraySlice<String>, options: [String], flags allowedFlags: [String], positionals limit: Int) {
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            index += 1
            guard token.hasPrefix("-") else {
                guard positionals.count < limit else { return nil }
                positionals.append(token)
                continue
            }
            guard token.hasPrefix("--"), token != "--" else { return nil }
            let name: String
            var value: String?
            if let equals = token.firstIndex(of: "=") {
                name = String(token[..<equals])
                value = String(token[token.index(after: equals)...])
            } else {
                name = token
            }
            guard !values.contains(where: { $0.name == name }), !flags.contains(name) else { return nil }
            if allowedFlags.contains(name) {
                guard value == nil else { return nil }
                flags.append(name)
                continue
            }
            guard options.contains(name) else { return nil }
            if value == nil, index < tokens.endIndex {
                value = tokens[index]
                index += 1
            }
            guard let value, let first = value.first, first != "-" else { return nil }
            values.append((name, value))
        }
    }

    /// The value given for `name`, or nil.
    func value(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// `--db` and `--busy-timeout`, when they pass ``DatabaseChoice/problem``; nil when not.
    var database: DatabaseChoice? {
        var choice = DatabaseChoice(db: value("--db"))
        if let text = value("--busy-timeout") {
            guard let seconds = Double(text) else { return nil }
            choice.busyTimeout = seconds
        }
        return choice.problem == nil ? choice : nil
    }
}
