/// The `sync_applied` table (migration 0013, both engines): on a hub, every intent it applied
/// (or judged to change nothing), so that a push retried after a lost answer applies once.
enum SyncAppliedTable {
    /// The table's name.
    static let name = "sync_applied"
    /// The primary key: the intent's id.
    static let key = "intent_id"
    /// Every column.
    static let columns = [key, "origin", "applied_at"]
}
