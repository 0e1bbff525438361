import Glibc

/// Writes to stdout and stderr with write(2), as `stockroom`'s `StandardError` does (and for
/// the same reason: `FileHandle.write` traps when the write fails, and lives in Foundation).
public enum StandardStream {
    /// Writes all of `text` to `descriptor`, retrying partial writes and EINTR; gives up
    /// silently on failure (a log line that cannot be written is lost).
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            if written == 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
