import Inventory

/// How the inventory screen shows its state: pure functions of the model's values, tested
/// without a screen (seed 003's "testable views").
public enum InventoryPresentation {
    /// One row of the list.
    public struct Row: Equatable, Sendable {
        /// The item's name.
        public var title: String
        /// "In stock: 20", "Out of stock: on back order".
        public var subtitle: String
        /// The colour's name for a swatch, with its text alternative; nil without a colour.
        public var swatch: Color?
        /// Out of stock: shown greyed out.
        public var isMuted: Bool

        /// A row as given.
        public init(title: String, subtitle: String, swatch: Color?, isMuted: Bool) {
            self.title = title
            self.subtitle = subtitle
            self.swatch = swatch
            self.isMuted = isMuted
        }
    }

    /// The row for `item`.
    public static func row(for item: Item) -> Row {
        Row(title: Presentation.displayName(item.name), subtitle: Presentation.text(for: item.status),
            swatch: item.color, isMuted: !item.status.isInStock)
    }

    /// The title over an open draft: adding, duplicating and resolving a conflict read
    /// differently; a conflict's says why ("Resolve a conflict: oversold, 1 missing").
    public static func title(for draft: Draft) -> String {
        switch draft {
        case .adding: "Add new item"
        case .duplicating: "Duplicate item"
        case .resolving(_, let conflict): "Resolve a conflict: \(Presentation.summary(of: conflict))"
        }
    }

    /// The replica's line under the list: "2 changes waiting, 1 open conflict; last sync
    /// 2026-11-28T10:00:00.000Z" (the time as `stockroom sync status` shows it, UTC). Nil, so
    /// hidden, for a file that is not a replica, unless its first sync is running.
    public static func syncLine(for state: SyncState?, isSyncing: Bool) -> String? {
        let when = isSyncing ? "syncing now" : state.map { $0.lastSync.map { "last sync " + $0 } ?? "never synced" }
        guard let when else { return nil }
        guard let state else { return when }
        let waiting = switch state.pending {
        case 0: "nothing waiting"
        case 1: "1 change waiting"
        case let count: "\(count) changes waiting"
        }
        let open = switch state.conflicts {
        case 0: "no open conflicts"
        case 1: "1 open conflict"
        case let count: "\(count) open conflicts"
        }
        return "\(waiting), \(open); \(when)"
    }

    /// One open conflict in the list, with what a person decides between.
    public struct ConflictRow: Equatable, Sendable {
        /// The item's name as the hub holds it (or the replica's last copy, when the hub deleted it).
        public var title: String
        /// Why, short: "overtaken", "oversold, 1 missing".
        public var reason: String
        /// Why, as a sentence.
        public var explanation: String
        /// The hub's value, every field on one line; "deleted; the replica's last copy: …".
        public var hub: String
        /// What the replica wanted, every field on one line; "the item deleted".
        public var wanted: String
        /// Which replica, and when the change was made there (its clock, UTC).
        public var origin: String

        /// A row as given.
        public init(title: String, reason: String, explanation: String, hub: String, wanted: String, origin: String) {
            self.title = title
            self.reason = reason
            self.explanation = explanation
            self.hub = hub
            self.wanted = wanted
            self.origin = origin
        }
    }

    /// The row for `entry`: the same words as `stockroom draft show` uses for its conflict.
    public static func row(for entry: ConflictEntry) -> ConflictRow {
        let conflict = entry.conflict
        return ConflictRow(title: Presentation.displayName(conflict.shown.name), reason: Presentation.summary(of: conflict),
                           explanation: Presentation.explanation(of: conflict), hub: Presentation.hubText(of: conflict),
                           wanted: Presentation.wantedText(of: conflict),
                           origin: "replica \(Presentation.shortID(conflict.origin)), changed there at \(conflict.madeAt)")
    }
}
