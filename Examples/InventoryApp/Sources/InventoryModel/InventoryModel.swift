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

    private let pool: StorePool
    private let location: DatabaseLocation
    private let query: ItemQuery

    /// A model over the store at `location`, opened as `pool`, listing what `query` matches.
    public init(pool: StorePool, location: DatabaseLocation, query: ItemQuery = ItemQuery()) {
        self.pool = pool
        self.location = location
        self.query = query
    }

    /// Keeps ``inventory`` equal to what the store holds, until the calling task is cancelled:
    /// run it in the screen's task (`.task { await model.observe() }` in SwiftUI).
    public func observe() async {
        do {
            for try await items in ItemQueryObservation(location: location, query: query) {
                inventory = items
                isLoaded = true
            }
        } catch {
            failure = "the inventory could not be read: \(error)"
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
    /// ``inventory``.
    public func saveButtonTapped() async {
        guard let id = draft?.id else { return }
        await perform { [pool] in
            _ = try await pool.write { store in try store.drafts.save(id: id) }
            self.close()
        }
    }

    /// Cancels the open draft: it is deleted, nothing is added.
    public func cancelButtonTapped() async {
        guard let id = draft?.id else { return }
        await perform { [pool] in
            try await pool.write { store in try store.drafts.cancel(id: id) }
            self.close()
        }
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
