import ArgumentParser

/// How a command that reports one outcome prints it.
enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
    /// Sentences for people.
    case text
    /// One JSON object for scripts.
    case json
}
