import Foundation

/// What the dynamic linker loads when an executable starts: its `DT_NEEDED` entries, as
/// `readelf -d` (binutils) prints them.
public enum SharedLibraries {
    /// The sonames `executable` names as needed (`libc.so.6`, ...), in the order it lists them.
    ///
    /// - Throws: when `readelf` fails (not an ELF file, say), with what it printed.
    public static func needed(by executable: String) throws -> [String] {
        let result = try Processes.run("/usr/bin/readelf", ["--dynamic", "--wide", executable])
        guard result.status == 0 else {
            throw SharedLibrariesError(message: "readelf -d \(executable) failed: \(result)")
        }
        // 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]
        return result.lines.compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]"),
                  open < close else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }
}

/// `readelf` could not read an executable.
public struct SharedLibrariesError: Error, CustomStringConvertible {
    /// What went wrong, with readelf's output.
    public let message: String
    public var description: String { message }
}
