/// Why an observation of the history (``HistoryFollower``, ``HistoryEvents``,
/// ``ItemQueryObservation``) ended: the history it was reading is not the one it started on.
/// A follower never skips silently past such a change; it ends, and the reader decides (start
/// again from position 0 of the new history, say).
public enum ObservationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The event at the last position read is gone or is another event: the history was
    /// replaced (`restore` copies a backup's pages into the live file, and positions may go
    /// backwards), so what was read no longer describes the database.
    case historyReplaced(path: String, position: Int64)
    /// A position was asked to follow after that is past the last event of the history.
    case positionBeyondHistory(path: String, position: Int64, last: Int64)
    /// The database file was deleted (or renamed away) while it was followed.
    case fileDeleted(path: String)
    /// Another file now stands at the database's path (renamed or copied over it).
    case fileReplaced(path: String)
    /// There is no database to follow at `path` yet (no file, or a file without Stockroom's
    /// tables); a command that writes creates it.
    case databaseMissing(path: String)

    public var description: String {
        switch self {
        case .historyReplaced(let path, let position):
            "the history of \(path) was replaced (a restore?): the event at position \(position) is gone or another one; follow again from the start (--after 0)"
        case .positionBeyondHistory(let path, let position, let last):
            "position \(position) is past the last event of \(path) (\(last)); was the history replaced by a restore?"
        case .fileDeleted(let path):
            "the database file \(path) was deleted while it was followed"
        case .fileReplaced(let path):
            "the database file \(path) was replaced by another file while it was followed"
        case .databaseMissing(let path):
            "there is no Stockroom database at \(path) to follow yet (a command that writes creates it)"
        }
    }
}
