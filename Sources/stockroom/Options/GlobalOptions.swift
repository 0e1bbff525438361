/// Lets the options every command shares (`--db`, `--busy-timeout`) come before the
/// subcommand too, as in `stockroom --db inv.sqlite items list`.
///
/// ArgumentParser only accepts a subcommand's options after its name, so options written
/// before the first subcommand are moved to the end of the command line (before any `--`).
enum GlobalOptions {
    /// An array, not a `Set`: building a `Set<String>` at start cost every run 374k instructions
    /// (its generic metadata and a seeded hasher, BENCHMARKS.md "Issue 21: start-up") to look up
    /// two names.
    static let namesTakingValue = ["--db", "--busy-timeout"]

    static func hoisted(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard namesTakingValue.contains(name) else { break }
            leading.append(argument)
            if !argument.contains("="), index + 1 < arguments.count {
                leading.append(arguments[index + 1])
                index += 1
            }
            index += 1
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
