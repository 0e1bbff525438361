import FoundationEssentials
import Glibc

/// The kernel's table of mounts (/proc/self/mountinfo): which filesystem type holds a path,
/// so that a file on a network filesystem, where inotify never hears another machine's
/// writes, is watched by the fallback instead.
enum MountTable {
    /// The type (`ext4`, `nfs4`, `fuse.sshfs`, …) of the filesystem holding `path`, or nil
    /// when the table cannot be read.
    static func filesystemType(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        let absolute = String(cString: resolved)
        free(resolved)
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        var best: (mountPoint: String, type: String)?
        for line in table.split(separator: "\n") {
            // ID parent major:minor root MOUNT-POINT options [optional…] - TYPE source super-options
            let fields = line.split(separator: " ")
            guard fields.count > 4, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            let mountPoint = unescaped(fields[4])
            let contains = mountPoint == "/" || absolute == mountPoint || absolute.hasPrefix(mountPoint + "/")
            if contains, mountPoint.count >= (best?.mountPoint.count ?? -1) {
                best = (mountPoint, String(fields[dash + 1]))
            }
        }
        return best?.type
    }

    /// A mount point as written in the table, whose spaces and other separators are octal
    /// escapes (`\040`).
    private static func unescaped(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
               let value = UInt8(String(decoding: utf8[(index + 1)...(index + 3)], as: UTF8.self), radix: 8) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True for a filesystem whose files other machines write too (NFS, SMB, sshfs…): its
    /// changes reach no inotify watch, and SQLite's locks are not safe on it.
    static func isNetworkFilesystem(_ type: String) -> Bool {
        ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "glusterfs", "lustre", "afs", "fuse.sshfs"].contains(type)
    }
}
