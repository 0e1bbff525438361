import ArgumentParser

/// The root command of one of Stockroom's programs (`stockroom`, `stockroom-serve`): what
/// ``Failure/report(_:root:)`` needs to print its help or version.
package protocol RootCommand: ParsableCommand {
    /// Completes the configuration before ArgumentParser prints help, the version, a
    /// completion script or the help dump; `wrapped` is false for the help dump (the manual
    /// page), which man fills itself.
    static func completeForDisplay(wrapped: Bool)
}
