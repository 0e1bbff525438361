import FoundationEssentials
import Glibc

/// What the process checks before parsing its command line.
package enum StartUp {
    /// Signals whose default action would kill the process without an `error:` line.
    ///
    /// `SIGXFSZ` is sent when a write would pass the file-size limit (`ulimit -f`); ignored,
    /// the write fails with `EFBIG` instead, SQLite rolls the write back and reports an I/O
    /// error, and the command exits 74 with one line.
    package static func ignoreFatalSignals() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The arguments after the program's name, checked as the bytes the kernel passed.
    ///
    /// `CommandLine.arguments` repairs invalid UTF-8 to U+FFFD without a word, so a name would
    /// be saved other than as typed; the raw `argv` bytes are checked instead.
    ///
    /// - Throws: ``Failure/Message`` with code 70 when the process received no arguments at
    ///   all (not even its own name: the static binary where `/proc` cannot be read), 64 when an
    ///   argument is not valid UTF-8.
    package static func arguments() throws -> [String] {
        let count = Int(CommandLine.argc)
        // Linux (since 5.18) turns an empty argv into [""]: a program's name is never empty.
        let hasOwnName = count > 0 && CommandLine.unsafeArgv[0].map { $0.pointee != 0 } == true
        guard hasOwnName, !CommandLine.arguments.isEmpty else {
            throw Failure.Message(code: .software, description:
                "the process received no command-line arguments, not even its own name (is /proc readable?); nothing was done")
        }
        for position in 1..<max(1, count) {
            guard let argument = CommandLine.unsafeArgv[position] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(argument))
            if let offset = invalidUTF8Offset(in: bytes) {
                throw Failure.Message(code: .usage, description:
                    "argument \(position) is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at byte \(offset + 1)); nothing was done")
            }
        }
        return Array(CommandLine.arguments.dropFirst())
    }

    /// The offset of the first byte that does not belong to valid UTF-8, or nil.
    package static func invalidUTF8Offset(in bytes: some Collection<UInt8>) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
