import Glibc
import StockroomStore

/// The draft wizard's terminal: writes prompts straight to file descriptor 1 (nothing waits in
/// a buffer when the program reads) and reads whole lines from file descriptor 0 in the
/// terminal's canonical mode, so it sees Ctrl-D as end of input.
///
/// Ctrl-C is caught rather than left to kill the process: a SIGINT handler writes a byte to a
/// pipe, and each read waits on the terminal and that pipe together, so an interrupt during a
/// read or just before it ends the read cleanly, and one during a database write lets the write
/// finish first. SIGTERM (`kill PID`, a session closing) is caught the same way, so it too
/// keeps the draft and prints the line that resumes it. The terminal's settings are never changed (canonical mode is the default), and
/// the ones found at the start are put back on every way out all the same.
final class WizardTerminal {
    /// What one read gave.
    enum Input: Equatable {
        /// A line, without its line break.
        case line(String)
        /// Ctrl-D (end of input) on an empty line.
        case endOfInput
        /// Ctrl-C.
        case interrupted
        /// SIGTERM.
        case terminated
    }

    /// True when standard input and standard output are both terminals.
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    private var pending: [UInt8] = []
    private var savedSettings = termios()
    private let hasSavedSettings: Bool

    /// Installs the SIGINT handler and remembers the terminal's settings.
    init() throws {
        hasSavedSettings = tcgetattr(0, &savedSettings) == 0
        try InterruptPipe.install()
    }

    /// Puts the terminal's settings back as they were when the wizard started.
    func restore() {
        if hasSavedSettings { _ = tcsetattr(0, TCSANOW, &savedSettings) }
    }

    /// Writes `text` at once (no buffering between the program and the terminal).
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    /// Waits for the next line, Ctrl-D or Ctrl-C.
    func readLine() -> Input {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line)
            }
            var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: InterruptPipe.readEnd, events: Int16(POLLIN), revents: 0)]
            if poll(&descriptors, 2, -1) < 0 {
                if errno == EINTR { continue }
                return .endOfInput
            }
            if descriptors[1].revents != 0 {
                let signals = InterruptPipe.drain()
                pending.removeAll()
                return signals.contains(UInt8(SIGTERM)) ? .terminated : .interrupted
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .endOfInput
            }
            // Canonical mode: 0 bytes is Ctrl-D on an empty line (or the terminal hung up).
            // Ctrl-D after some text hands that text over without a line break; it waits here
            // for the rest of the line, as a shell does.
            if count == 0 { return .endOfInput }
            pending.append(contentsOf: buffer[..<count])
        }
    }
}

/// The self-pipe the SIGINT and SIGTERM handler writes to, one byte: the signal's number. The
/// handler only calls write(2), which is safe in a signal handler; the two ends are set (so their lazy initialisation is done) before
/// the handler is installed, and never change afterwards.
private enum InterruptPipe {
    nonisolated(unsafe) static var readEnd: Int32 = -1
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    static func install() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw Failure.Message(code: .ioError, description: "cannot set up the Ctrl-C handler: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = Glibc.write(InterruptPipe.writeEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in [SIGINT, SIGTERM] {
            sigaction(signal, &action, nil)
            sigaddset(&unblocked, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Empties the pipe and returns the signals it held.
    static func drain() -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count <= 0 { return received }
            received += buffer[..<count]
        }
    }
}
