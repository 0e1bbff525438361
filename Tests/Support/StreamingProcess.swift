import Foundation

/// Runs a process whose output is read while it is still running, to prove that it streams.
public enum StreamingProcess {
    /// What ``firstLines(_:of:_:environment:)`` saw.
    public struct Reading: Sendable {
        /// The first lines of standard output (fewer when the process ended first).
        public let lines: [String]
        /// True when the process was still running after those lines had arrived: the output
        /// was written before the work finished, not all at the end.
        public let wasStillRunning: Bool
    }

    /// Starts the process, reads standard output until `count` lines have arrived or the output
    /// ends, then closes the pipe, which stops a process that keeps writing.
    public static func firstLines(_ count: Int, of executable: String, _ arguments: [String],
                                  environment: [String: String] = [:]) throws -> Reading {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        var received = Data()
        var lineCount = 0
        while lineCount < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            lineCount += chunk.count(where: { $0 == UInt8(ascii: "\n") })
            received.append(chunk)
        }
        let wasStillRunning = process.isRunning
        // Stop it. Closing the pipe, as `head` would, is not enough: the test runner ignores
        // SIGPIPE and children inherit that, so the writer would go on, its writes failing,
        // until something else stopped it. SIGTERM is blocked the same way; SIGKILL cannot be.
        try output.fileHandleForReading.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // Split bytes, not Characters: "\r\n" is one Character and would never split on "\n".
        let lines = received.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return Reading(lines: lines.prefix(count).map { String(decoding: $0, as: UTF8.self) }, wasStillRunning: wasStillRunning)
    }
}
