import Glibc

/// Writes to stderr with write(2), never through `FileHandle.write`, which traps (SIGILL) when
/// the write fails: under `ulimit -f 0` with stderr a regular file, a full disk under a log
/// file, or a closed stderr. An error line that cannot be written is lost, but the exit code
/// still tells the caller what happened.
package enum StandardError {
    /// Writes all of `text`, retrying partial writes and EINTR; gives up silently on failure.
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            if written == 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
