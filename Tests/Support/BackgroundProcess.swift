import Foundation

/// A real process that runs while the test goes on: the test reads the lines it prints to learn
/// when it is ready (never sleeping), and waits for it at the end.
///
/// Every background process has a deadline: past it, the process is killed, its output ends,
/// and the test fails instead of hanging.
public final class BackgroundProcess: @unchecked Sendable {
    private let process: Process
    private let output = Pipe()
    private let errors = Pipe()
    private let input = Pipe()
    private let collectedErrors = ErrorText()
    private let errorsDone = DispatchGroup()

    /// Starts `executable` with `arguments`; `STOCKROOM_DB` is unset unless `environment` sets it.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                deadlineSeconds: Double = 120) throws {
        process = Processes.configuredProcess(executable, arguments, environment: environment)
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        errorsDone.enter()
        let errorHandle = errors.fileHandleForReading, collected = collectedErrors, done = errorsDone
        DispatchQueue.global().async {
            collected.set(errorHandle.readDataToEndOfFile())
            done.leave()
        }
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + deadlineSeconds) {
            if process.isRunning { process.terminate() }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The next line the process prints on stdout, without its line break; nil when its output
    /// ended (it exited, or was killed at the deadline).
    public func readLine() -> String? {
        var bytes: [UInt8] = []
        let descriptor = output.fileHandleForReading.fileDescriptor
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// The process's id, for sending it signals.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Writes `text` to the process's standard input.
    public func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes the process's standard input, which many processes take as the signal to end.
    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the process to exit and returns what `Processes.run` would have: its status,
    /// the stdout not yet read, and all of its stderr.
    public func wait() -> ProcessResult {
        closeInput()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorsDone.wait()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: String(decoding: rest, as: UTF8.self), stderr: collectedErrors.text)
    }

    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ newData: Data) { lock.lock(); data = newData; lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
    }
}
