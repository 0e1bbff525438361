import FoundationEssentials
import Glibc

/// Why `stockroom copy` did not copy; in every case the destination holds what it held before.
public enum CopyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source and the destination are the same database.
    case sameDatabase(String)
    /// The source file does not exist.
    case sourceMissing(String)
    /// The destination is a replica (docs/replicas.md): a copy into it would bypass its outbox,
    /// and its hub would never hear of the rows it replaced.
    case destinationIsReplica(String, hub: String)
    /// The destination already holds rows (per table) and replacing was not asked for.
    case destinationNotEmpty(String, rows: [InventoryCopy.Table: Int])
    /// A source row that does not decode (only a file written around Stockroom's CHECKs has one).
    case undecodableRow(table: String, key: String, reason: String)
    /// The destination's rows, read back before committing, differ from the source's.
    case verificationFailed(table: String, sourceRows: Int, destinationRows: Int,
                            sourceChecksum: String, destinationChecksum: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .sameDatabase(let location):
            "--from and --to name the same database (\(location))"
        case .sourceMissing(let path):
            "no database at \(path)"
        case .destinationNotEmpty(let location, let rows):
            "\(location) already holds an inventory (\(rows[.items] ?? 0) items, \(rows[.itemEvents] ?? 0) history events, \(rows[.drafts] ?? 0) drafts); nothing was copied; use --force to replace it"
        case .destinationIsReplica(let location, let hub):
            "\(location) is a replica of \(hub): a copy into it would bypass what it sends its hub; nothing was copied; copy into a new file, then attach it with `sync --hub`"
        case .undecodableRow(let table, let key, let reason):
            "the source's \(table) row \(key) cannot be read: \(reason); nothing was copied"
        case .verificationFailed(let table, let sourceRows, let destinationRows, let sourceChecksum, let destinationChecksum):
            "the copy of \(table) does not match the source (\(sourceRows) rows, checksum \(sourceChecksum); copied \(destinationRows) rows, checksum \(destinationChecksum)); nothing was committed"
        }
    }
}
