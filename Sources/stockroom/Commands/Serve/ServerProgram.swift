import Glibc
import StockroomStore

/// `stockroom-serve`, the web server's program, installed next to `stockroom` (the release
/// build and every install put both in one folder).
enum ServerProgram {
    static let name = "stockroom-serve"

    /// Replaces this process with `stockroom-serve ARGUMENTS...` (execv): no child process, so the
    /// server's stdout, stderr, exit code and signals are those of the `stockroom` that was run
    /// (a service manager, a shell's Ctrl-C or `kill` reach the server itself).
    ///
    /// - Throws: ``Failure/Message`` with code 69 (unavailable), naming the path looked for,
    ///   when the program is missing or cannot be run (the exec failed; nothing was done).
    static func replaceProcess(arguments: [String]) throws -> Never {
        let path = try programPath()
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(path)] + arguments.map { strdup($0) } + [nil]
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        throw Failure.Message(code: .unavailable, description:
            "cannot run the web server \(path): \(reason) (\(name) is installed next to stockroom; see the README, \"Install\")")
    }

    /// `stockroom-serve` in the folder of the running executable: `/proc/self/exe`, so a
    /// symbolic link to `stockroom` elsewhere (or a `PATH` lookup) still finds the real folder.
    static func programPath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else {
            throw Failure.Message(code: .unavailable, description:
                "cannot run the web server: /proc/self/exe cannot be read, so \(name) is not found next to stockroom")
        }
        let executable = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let folder = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
        return folder + "/" + name
    }
}
