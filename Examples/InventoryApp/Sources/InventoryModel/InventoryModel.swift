import DraftFlow
import Foundation
import Inventory
import Observation
import StockroomStore

/// The inventory screen's model (seed 000's `InventoryViewModel`), over a Stockroom store.
///
/// `inventory` follows the store: ``observe()`` reads it again after every commit, whoever
/// made it (this model, another process, the `sqlite3` shell). A new item is entered through a
/// draft kept in the store (``addButtonTapped()``, ``duplicate(item:)``), edited, then saved
/// or cancelled: a draft survives the app closing, and any Stockroom front can finish it.
///
/// On a replica (docs/replicas.md) it also shows the changes waiting to be pushed, the last
/// sync and the open conflicts (``syncState``, ``conflicts``), syncs with its ``ReplicaHub``
/// (``syncButtonTapped()``), and resolves a conflict through its draft: keeping the hub's
/// value, taking the replica's (``resolve(_:by:)``), or editing it in the draft flow
/// (``edit(conflict:)``, then ``edit(_:)`` and ``saveButtonTapped()``).
@MainActor @Observable
public final class InventoryModel {
    /// The items, in the store's order (by name).
    public private(set) var inventory: [Item] = []
    /// False until ``observe()`` has read the inventory once: a screen shows "loading" before.
    public private(set) var isLoaded = false
    /// The draft being edited, or nil when none is open.
    public private(set) var draft: IdentifiedDraft?
    /// The draft wizard's question for ``draft``, for a front that asks one question at a time
    /// (a terminal, a phone); a form shows every field at once and ignores it.
    public private(set) var wizard: DraftWizard?
    /// Why the last action failed, in words for the person using the app; nil after a success.
    public private(set) var failure: String?
    /// The replica's changes waiting to be pushed, last sync and open conflicts; nil when the
    /// file is not a replica (before its first sync, or a hub), and then a screen hides it.
    public private(set) var syncState: SyncState?
    /// The open conflicts, oldest first: on a replica, those its last sync brought and it has
    /// not resolved; on a hub, all of them.
    public private(set) var conflicts: [ConflictEntry] = []
    /// True while ``syncButtonTapped()`` runs.
    public private(set) var isSyncing = false
    /// What the last sync started here did; nil before one completed.
    public private(set) var lastSync: SyncReport?

    private let pool: StorePool
    private let location: DatabaseLocation
    private let query: ItemQuery
    private let hub: ReplicaHub
    /// The last replica refresh asked for, and the last one shown: a refresh that finishes
    /// after a later one began is not shown, since the later one read a newer state.
    private var replicaRefreshes = (asked: 0, shown: 0)

    /// A model over the store at `location`, opened as `pool`, listing what `query` matches and
    /// syncing with `hub`.
    public init(pool: StorePool, location: DatabaseLocation, query: ItemQuery = ItemQuery(),
                hub: ReplicaHub = .remembered()) {
        self.pool = pool
        self.location = location
        self.query = query
        self.hub = hub
    }

    /// Keeps ``inventory``, ``conflicts`` and ``syncState`` equal to what the store holds, until
    /// the calling task is cancelled: run it in the screen's task (`.task { await
    /// model.observe() }` in SwiftUI).
    public func observe() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.observeInventory() }
            group.addTask { await self.observeReplica() }
        }
    }

    private func observeInventory() async {
        do {
            for try await items in ItemQueryObservation(location: location, query: query) {
                inventory = items
                isLoaded = true
            }
        } catch {
            failure = "the inventory could not be read: \(error)"
        }
    }

    /// Reads the conflicts and the sync state again after every commit that adds history: a
    /// pull, a change made here (a waiting intent more), a resolution saved anywhere. A commit
    /// that adds none (another process's push that pulled nothing, a conflict cancelled by
    /// another front) shows at the next one; this model's own syncs and resolutions read them
    /// again themselves.
    private func observeReplica() async {
        do {
            for try await _ in StoreObservation(location: location, read: { store in try store.items.lastEventPosition() }) {
                await refreshReplica()
            }
        } catch {
            failure = "the conflicts could not be read: \(error)"
        }
    }

    private func refreshReplica() async {
        replicaRefreshes.asked += 1
        let refresh = replicaRefreshes.asked
        do {
            let conflicts = try await pool.read { store in try store.drafts.all().compactMap(ConflictEntry.init) }
            let state: SyncState?
            do {
                state = SyncState(try await pool.syncStatus())
            } catch SyncError.notAReplica, SyncError.replicaOnServer {
                state = nil
            }
            guard refresh > replicaRefreshes.shown else { return }
            replicaRefreshes.shown = refresh
            self.conflicts = conflicts
            syncState = state
        } catch {
            failure = "the replica's state could not be read: \(error)"
        }
    }

    // MARK: Syncing and conflicts

    /// Syncs with the hub now: pushes the waiting changes, pulls the hub's, and brings the
    /// conflicts the hub found. Does nothing while a sync runs.
    public func syncButtonTapped() async {
        guard !isSyncing else { return }
        isSyncing = true
        await perform { [pool, hub] in
            self.lastSync = try await hub.sync(pool)
        }
        isSyncing = false
        await refreshReplica()
    }

    /// How a conflict is resolved without editing it.
    public enum Resolution: Sendable {
        /// The hub's value stays: the draft is cancelled.
        case keepHub
        /// The replica's value is taken (for a wanted delete, the item is deleted): the draft is
        /// saved as the replica wanted it, even if someone edited it meanwhile.
        case takeReplica
    }

    /// Resolves `conflict` as `resolution` says. On a replica the resolution is written here at
    /// once and pushed at the next sync; the hub then closes the conflict everywhere.
    public func resolve(_ conflict: ConflictEntry, by resolution: Resolution) async {
        let id = conflict.id
        await perform { [pool] in
            switch resolution {
            case .keepHub:
                try await pool.write { store in try store.drafts.cancel(id: id) }
            case .takeReplica:
                let wanted = conflict.conflict.startingItem
                _ = try await pool.write { store in
                    if try store.drafts.draft(id: id).draft.item != wanted {
                        _ = try store.drafts.edit(id: id, with: ItemEdit(becoming: wanted))
                    }
                    return try store.drafts.save(id: id)
                }
            }
            if self.draft?.id == id { self.close() }
        }
        await refreshReplica()
    }

    /// Opens `conflict`'s draft in the draft flow, to edit it before saving: ``edit(_:)`` then
    /// ``saveButtonTapped()`` resolves it with the item as edited, and ``cancelButtonTapped()``
    /// keeps the hub's value.
    public func edit(conflict: ConflictEntry) async {
        let id = conflict.id
        await perform { [pool] in
            let entry = try await pool.read { store in try store.drafts.draft(id: id) }
            self.open(entry)
        }
    }

    // MARK: The draft flow

    /// Opens a draft for a new item.
    public func addButtonTapped() async {
        await perform { [pool] in
            let entry = try await pool.write { store in try store.drafts.startAdding() }
            self.open(entry)
        }
    }

    /// Opens a draft that copies `item` under a new id.
    public func duplicate(item: Item) async {
        await perform { [pool] in
            let entry = try await pool.write { store in try store.drafts.startDuplicating(itemID: item.id) }
            self.open(entry)
        }
    }

    /// Applies `edit` to the open draft (a form's field changed).
    public func edit(_ edit: ItemEdit) async {
        guard let id = draft?.id else { return }
        await perform { [pool] in
            let entry = try await pool.write { store in try store.drafts.edit(id: id, with: edit) }
            self.draft = entry
            self.wizard?.refresh(from: entry)
        }
    }

    /// Answers the wizard's question with a typed line; a saving or cancelling answer saves
    /// or cancels the draft.
    public func answer(_ line: String) async {
        guard let wizard else { return }
        switch wizard.answering(line) {
        case .next(let next, let edit):
            self.wizard = next
            if let edit { await self.edit(edit) }
        case .reask(let reason):
            failure = WizardPresentation.reason(for: reason)
        case .finished(.save):
            await saveButtonTapped()
        case .finished(.cancel):
            await cancelButtonTapped()
        case .finished(.quit):
            close()
        }
    }

    /// Saves the open draft: it becomes an item, and the observation brings it into
    /// ``inventory``. A conflict's draft resolves it with the item as edited.
    public func saveButtonTapped() async {
        guard let id = draft?.id else { return }
        await perform { [pool] in
            _ = try await pool.write { store in try store.drafts.save(id: id) }
            self.close()
        }
        await refreshReplica()
    }

    /// Cancels the open draft: it is deleted, nothing is added. A conflict's draft resolves it
    /// by keeping the hub's value.
    public func cancelButtonTapped() async {
        guard let id = draft?.id else { return }
        await perform { [pool] in
            try await pool.write { store in try store.drafts.cancel(id: id) }
            self.close()
        }
        await refreshReplica()
    }

    private func open(_ entry: IdentifiedDraft) {
        draft = entry
        wizard = DraftWizard(entry: entry)
    }

    private func close() {
        draft = nil
        wizard = nil
    }

    private func perform(_ body: () async throws -> Void) async {
        do {
            try await body()
            failure = nil
        } catch {
            failure = String(describing: error)
        }
    }
}

extension ItemEdit {
    /// The edit that gives any item `item`'s values, every field set (the id aside).
    init(becoming item: Item) {
        self.init(name: item.name, color: item.color.map { .set($0) } ?? .remove, status: item.status)
        for field in OptionalTextField.allCases { field.set(field.text(in: item), in: &self) }
    }
}
