import Foundation

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status (or 128 + signal number when killed by a signal).
    public let status: Int32
    /// Everything written to standard output.
    public let stdout: String
    /// Everything written to standard error.
    public let stderr: String

    /// Standard output without the final line break.
    public var output: String {
        // Compared as bytes: "\r\n" is a single Character, so hasSuffix("\n") misses it.
        var bytes = Substring(stdout).utf8
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        return String(Substring(bytes))
    }

    /// Standard output split into lines, without their LF or CRLF endings.
    ///
    /// Split on bytes: Swift treats "\r\n" as one Character, so splitting a CSV's text on "\n"
    /// would find no line breaks at all.
    public var lines: [String] {
        guard !output.isEmpty else { return [] }
        return output.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            let text = String(decoding: line, as: UTF8.self)
            return text.utf8.last == UInt8(ascii: "\r") ? String(decoding: line.dropLast(), as: UTF8.self) : text
        }
    }

    /// For test failure messages.
    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs real executables: the built `stockroom` binary and system tools such as `sqlite3`.
public enum Processes {
    /// The folder holding the products built alongside the test bundle (`.build/debug`).
    public static let productsDirectory: URL = {
        // /proc/self/exe is the test bundle's executable, which SwiftPM places beside the
        // products it built; STOCKROOM_BIN overrides it for testing an installed binary.
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }()

    /// The `stockroom` binary under test.
    public static var stockroomPath: String {
        ProcessInfo.processInfo.environment["STOCKROOM_BIN"] ?? productsDirectory.appending(path: "stockroom").path
    }

    /// `stockroom-serve`, the program `stockroom serve` runs: beside the `stockroom` under test.
    public static var serverPath: String {
        URL(fileURLWithPath: stockroomPath).deletingLastPathComponent().appending(path: "stockroom-serve").path
    }

    /// The package's root folder, found from this source file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `stockroom ARGUMENTS` with `STOCKROOM_DB` unset unless given in `environment`: the
    /// one way CLI tests run the binary (CLITests' `CLIDatabase` only adds its file's path).
    @discardableResult
    public static func stockroom(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
                                 workingDirectory: URL? = nil, timeoutSeconds: Double = defaultTimeoutSeconds) throws -> ProcessResult {
        try run(stockroomPath, arguments, environment: environment, stdin: stdin,
                workingDirectory: workingDirectory, timeoutSeconds: timeoutSeconds)
    }

    /// How long a process may run before it is killed and the test sees 128 + SIGKILL: long
    /// enough for a loaded machine, short enough that a hang fails instead of stalling the suite.
    public static let defaultTimeoutSeconds: Double = 300

    /// Runs the `sqlite3` shell on `database` with `sql` on standard input.
    ///
    /// The shell gets a 5 s busy timeout, as Stockroom's own connections have: without one a
    /// read can fail at once with "database is locked" while another process writes.
    @discardableResult
    public static func sqlite3(_ database: String, _ sql: String, options: [String] = []) throws -> ProcessResult {
        try run("/usr/bin/sqlite3", ["-cmd", ".timeout 5000"] + options + [database], stdin: sql)
    }

    /// Runs an executable to completion and captures its output; past `timeoutSeconds` it is
    /// killed (status 128 + SIGKILL) so that a hang fails the test instead of stalling the suite.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           stdin: String? = nil, workingDirectory: URL? = nil,
                           timeoutSeconds: Double = defaultTimeoutSeconds) throws -> ProcessResult {
        let process = configuredProcess(executable, arguments, environment: environment)
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Read both pipes concurrently so a chatty process never blocks on a full pipe.
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isError) in [(output, false), (errors, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isError: isError)
                group.leave()
            }
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        process.waitUntilExit()
        group.wait()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: collected.text(isError: false), stderr: collected.text(isError: true))
    }

    /// A process for `executable`, not yet started, whose environment is this one's without
    /// `STOCKROOM_DB`, plus `environment`.
    static func configuredProcess(_ executable: String, _ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["STOCKROOM_DB"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return process
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data(), err = Data()
        func set(_ data: Data, isError: Bool) {
            lock.lock(); defer { lock.unlock() }
            if isError { err = data } else { out = data }
        }
        func text(isError: Bool) -> String {
            lock.lock(); defer { lock.unlock() }
            return String(decoding: isError ? err : out, as: UTF8.self)
        }
    }
}
