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

/// How a single record (or a short list of drafts) is printed: no CSV, which is for item lists.
enum RecordFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned fields for people.
    case table
    /// JSON for scripts.
    case json
}
