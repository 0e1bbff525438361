import FoundationEssentials
import Glibc
import Inventory

/// A request the store could not carry out. None of these change the database.
///
/// Thrown by the store itself, by its own rules; an engine's own errors (a lock, a constraint,
/// a full disk) are thrown as they are, and ``StoreFailure`` says what those mean. The DocC
/// article "Errors" has the table of every error type.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of record an id names.
    public enum Record: String, Sendable {
        /// An item (`items`).
        case item
        /// A draft (`drafts`).
        case draft
    }

    /// No item or draft has this id (or id prefix).
    case notFound(Record, String)
    /// The id prefix matches more than one record.
    case ambiguousID(Record, String, matches: [String])
    /// The text is not an id, an id prefix of at least ``IDPrefix/minimumLength`` characters,
    /// or an id's short form (`Presentation.shortID(_:)`).
    case malformedID(Record, String)
    /// A row's columns do not form a valid case of the domain's enums.
    case undecodableRow(table: String, id: String, reason: String)
    /// `update … ifVersion:` found the item at another version: it changed since it was read.
    case versionConflict(id: String, expected: Int, current: Int)

    /// One line for the user.
    public var description: String {
        switch self {
        case .notFound(let record, let id):
            "no \(record.rawValue) with id '\(id)'"
        case .ambiguousID(let record, let prefix, let matches):
            "id prefix '\(prefix)' matches more than one \(record.rawValue) (\(matches.joined(separator: ", "))…); type more characters"
        case .malformedID(let record, let text):
            "'\(text)' is not a valid \(record.rawValue) id: give a UUID, a prefix of at least \(IDPrefix.minimumLength) of its characters (0-9, a-f, -), or its short form (0193\(Presentation.shortIDSeparator)2e4f5a6b: the first and at least the last \(IDPrefix.minimumLength))"
        case .undecodableRow(let table, let id, let reason):
            "row \(id) of table \(table) does not decode: \(reason)"
        case .versionConflict(let id, let expected, let current):
            current > expected
                ? "item \(id) changed since version \(expected): it is at version \(current) now; nothing was changed"
                : "item \(id) is at version \(current), not \(expected); nothing was changed"
        }
    }
}
