import Glibc

/// Writes to stdout and stderr with write(2), never through `FileHandle.write`, which traps
/// (SIGILL) when the write fails (under `ulimit -f 0` with the stream a regular file, a full
/// disk under a log file, a closed stream) and lives in Foundation. Both programs write every
/// line through it: their error lines (``StandardError``), the server's URL and access log.
package enum StandardStream {
    /// Writes all of `text` to `descriptor`, retrying partial writes and EINTR; gives up
    /// silently on failure (a log line that cannot be written is lost). Returns false then
    /// (`events --follow` ends when its reader closed the pipe).
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            if written == 0 { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
