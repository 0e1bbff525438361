import CLibFuzzer
import Foundation

/// Runs libFuzzer over `body` with this process's arguments and exits with its status.
///
/// SwiftPM links an executable target's `main` under another name, so the targets cannot use
/// the `main` that `-sanitize=fuzzer` links in; they call libFuzzer's documented
/// `LLVMFuzzerRunDriver` instead, with the same flags and the same behaviour.
public func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}

/// The input as an array (empty for libFuzzer's empty input, whose pointer may be nil).
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run when a property does not hold: libFuzzer then reports the input that broke
/// it as a crash (`deadly signal`) and writes it out, like any other crash.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                    file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("property failed at \(file):\(line): \(message())\n".utf8))
    abort()
}

/// A descriptor that reads `bytes` and then the end of the input (a pipe, filled and closed
/// before reading, so at most a pipe's capacity: the targets cap their inputs well below it).
/// The caller closes it.
public func readableDescriptor(_ bytes: [UInt8]) -> Int32 {
    var ends: [Int32] = [0, 0]
    require(pipe(&ends) == 0, "pipe: \(errno)")
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress! + written, bytes.count - written) }
        require(result > 0, "write to pipe: \(errno)")
        written += result
    }
    close(ends[1])
    return ends[0]
}

/// The largest input a target reads through ``readableDescriptor(_:)`` (a pipe holds 64 KiB).
public let pipeInputLimit = 60_000

/// What `body` writes to a descriptor, read back (through a pipe: at most 64 KiB).
public func captured(_ body: (Int32) throws -> Void) rethrows -> [UInt8] {
    var ends: [Int32] = [0, 0]
    require(pipe(&ends) == 0, "pipe: \(errno)")
    defer { close(ends[0]) }
    do {
        try body(ends[1])
    } catch {
        close(ends[1])
        throw error
    }
    close(ends[1])
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let got = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        require(got >= 0, "read from pipe: \(errno)")
        if got == 0 { return output }
        output += chunk[..<got]
    }
}
