import Glibc

/// Writes the `error:` lines to stderr through ``StandardStream``: an error line that cannot be
/// written is lost, but the exit code still tells the caller what happened.
package enum StandardError {
    /// Writes all of `text` to stderr, retrying partial writes and EINTR; gives up silently on
    /// failure.
    package static func write(_ text: String) {
        StandardStream.write(text, to: STDERR_FILENO)
    }
}
