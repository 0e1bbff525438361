import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real process run in a real pseudo-terminal, as a person at a terminal runs it: its
/// stdin, stdout and stderr are the terminal, which is its controlling terminal, so writing
/// Ctrl-C (0x03) to the terminal makes the kernel send it SIGINT, and Ctrl-D (0x04) at the start
/// of a line is end of input.
///
/// The test waits for text the process prints (``expect(_:)``) before typing; it never waits a fixed time.
/// Every wait has a deadline: past it the process is killed and the test fails with the
/// transcript so far, instead of hanging.
public final class PseudoTerminalProcess: @unchecked Sendable {
    /// An expectation that was not met.
    public struct Failure: Error, CustomStringConvertible {
        /// What the test waited for.
        public let expected: String
        /// Why it stopped waiting.
        public let reason: String
        /// Everything the process printed so far.
        public let transcript: String
        public var description: String { "\(reason) while waiting for \(expected.debugDescription); transcript:\n\(transcript)" }
    }

    private let master: Int32
    private let pid: pid_t
    private var output: [UInt8] = []
    private var cursor = 0
    private var ended = false
    private var exitStatus: Int32?
    private let deadlineSeconds: Double

    /// The terminal's local modes (ICANON, ECHO, ISIG, …) when the process started.
    public private(set) var initialLocalModes: tcflag_t = 0

    /// The terminal's local modes now: a process that changed them and did not put them back
    /// would leave the person's terminal without echo or line editing.
    public var localModes: tcflag_t {
        var settings = termios()
        _ = tcgetattr(master, &settings)
        return settings.c_lflag
    }

    /// Everything the process has printed (and the terminal echoed) so far.
    public var transcript: String { String(decoding: output, as: UTF8.self) }

    /// Starts `executable` in a new session on a new pseudo-terminal; `STOCKROOM_DB` is unset
    /// unless `environment` sets it. Signals start with their default actions and none blocked,
    /// whatever the test runner does with them.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                deadlineSeconds: Double = 60) throws {
        self.deadlineSeconds = deadlineSeconds
        // The parent never opens the terminal's other side (the child opens it by name), so no
        // other process spawned meanwhile can inherit it, and the output ends when the child exits.
        master = LibC.posixOpenpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, LibC.grantpt(master) == 0, LibC.unlockpt(master) == 0,
              LibC.ptsnameR(master, &name, name.count) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var size = winsize(ws_row: 24, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        var settings = termios()
        _ = tcgetattr(master, &settings)
        initialLocalModes = settings.c_lflag

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGHUP, SIGTSTP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A new session: the terminal opened next (without O_NOCTTY) becomes its controlling one.
        posix_spawnattr_setflags(&attributes, Int16(LibC.spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)

        var merged = ProcessInfo.processInfo.environment
        merged["STOCKROOM_DB"] = nil
        merged["TERM"] = "dumb"
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(master)
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Waits until the process prints `text` after what earlier expectations matched, and
    /// returns what it printed up to and including it.
    @discardableResult
    public func expect(_ text: String) throws -> String {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(deadlineSeconds)
        while true {
            if let range = find(needle, from: cursor) {
                let matched = String(decoding: output[cursor..<range.upperBound], as: UTF8.self)
                cursor = range.upperBound
                return matched
            }
            if ended { throw Failure(expected: text, reason: "the output ended", transcript: transcript) }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                kill(pid, SIGKILL)
                throw Failure(expected: text, reason: "the deadline passed", transcript: transcript)
            }
            readAvailable(timeoutMilliseconds: Int32(min(remaining * 1000, 1000)))
        }
    }

    /// Types `text` (as is: add "\n" for Enter).
    public func type(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }

    /// Types a line and Enter.
    public func typeLine(_ line: String) { type(line + "\n") }

    /// Presses Ctrl-C: the terminal sends SIGINT to the process.
    public func pressControlC() { type("\u{03}") }

    /// Presses Ctrl-D: end of input when the line is empty.
    public func pressControlD() { type("\u{04}") }

    /// Sends `signal` to the process itself (as `kill` or a closing session would), not
    /// through the terminal.
    public func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the process to exit (reading its last output) and returns its exit status,
    /// 128 + the signal's number when a signal ended it.
    public func waitForExit() throws -> Int32 {
        let deadline = Date().addingTimeInterval(deadlineSeconds)
        while !ended {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                kill(pid, SIGKILL)
                throw Failure(expected: "the process to exit", reason: "the deadline passed", transcript: transcript)
            }
            readAvailable(timeoutMilliseconds: Int32(min(remaining * 1000, 1000)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }

    /// The output printed after the last expectation's match.
    public var unmatchedOutput: String { String(decoding: output[cursor...], as: UTF8.self) }

    private func readAvailable(timeoutMilliseconds: Int32) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMilliseconds)
        guard ready > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 {
            output.append(contentsOf: buffer[..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            // EIO: every process holding the terminal's other side has exited.
            ended = true
        }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Range<Int>? {
        guard !needle.isEmpty, output.count - start >= needle.count else { return needle.isEmpty ? start..<start : nil }
        for index in start...(output.count - needle.count) where output[index] == needle[0] {
            if output[index..<(index + needle.count)].elementsEqual(needle) { return index..<(index + needle.count) }
        }
        return nil
    }
}

/// The C library's pseudo-terminal calls, which Swift's Glibc module leaves out (they need
/// _XOPEN_SOURCE), looked up by name with their C signatures.
private enum LibC {
    private static func function<T>(_ name: String, as type: T.Type) -> T {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("the C library has no \(name)")
        }
        return unsafeBitCast(symbol, to: type)
    }

    static let posixOpenpt = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grantpt = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlockpt = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let ptsnameR = function("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
    /// glibc's POSIX_SPAWN_SETSID (spawn.h, glibc 2.26 and later), hidden behind _GNU_SOURCE.
    static let spawnSetSID: Int32 = 0x80
}
