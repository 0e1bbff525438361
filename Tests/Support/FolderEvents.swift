import Foundation

/// Waits for real file-system events in a folder (Linux inotify), so a test can act at the
/// moment a process writes a file instead of sleeping and hoping.
public final class FolderEvents {
    private let descriptor: Int32

    /// Starts watching `folder` for files created or written in it.
    public init(_ folder: String) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0,
              inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY) | UInt32(IN_CREATE)) >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// Blocks until a file whose name satisfies `matches` is written to, and returns its name.
    public func waitForWrite(to matches: (String) -> Bool) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            var offset = 0
            while offset + 16 <= count {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_MODIFY) != 0, matches(name) { return name }
                offset += 16 + length
            }
        }
    }
}
