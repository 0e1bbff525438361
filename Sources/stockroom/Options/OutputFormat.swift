import ArgumentParser

/// How results are printed.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned columns for people.
    case table
    /// JSON for scripts.
    case json
    /// CSV (RFC 4180) with a header row.
    case csv
}
