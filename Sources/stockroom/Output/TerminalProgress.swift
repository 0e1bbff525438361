import FoundationEssentials
import Glibc
import StockroomStore

/// "pages copied of total" on one self-overwriting stderr line, only when stderr is a terminal:
/// cron mail and pipes get nothing but the result.
final class TerminalProgress {
    let isShown = isatty(STDERR_FILENO) != 0
    private let label: String
    private var hasShown = false

    init(label: String) { self.label = label }

    func show(_ progress: BackupProgress) {
        guard isShown else { return }
        hasShown = true
        StandardError.write("\r\(label): \(progress.copiedPages) of \(progress.totalPages) pages copied")
    }

    /// Shows `text` after the label, overwriting what was shown before.
    func show(text: String) {
        guard isShown else { return }
        hasShown = true
        // Clear to the end of the line: the new text may be shorter than the old.
        StandardError.write("\r\(label): \(text)\u{1B}[K")
    }

    /// Ends the progress line, so what follows (the result or an error) starts on its own line.
    func end() {
        guard hasShown else { return }
        hasShown = false
        StandardError.write("\n")
    }
}
