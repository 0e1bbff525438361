import FoundationEssentials
import Glibc
import Inventory

/// Reads and writes the `drafts` table, and turns drafts into items, on SQLite or
/// PostgreSQL: written once in `DraftRecords`, reached through the engine's connection as
/// `DraftStorage`, whose implementation is specialised for each engine (as `ItemStorage`'s).
public struct DraftRepository {
    /// The engine's connection (Seam/EngineConnection.swift).
    let storage: any DraftStorage

    init(storage: any DraftStorage) { self.storage = storage }

    /// Stores a new draft and returns it with its id.
    @discardableResult
    public func create(_ draft: Draft, id: UUID = UUID.version7()) throws -> IdentifiedDraft {
        try storage.createDraft(draft, id: id)
    }

    /// Starts a draft for a new item: empty name, no colour, in stock 1, then `edit` applied.
    @discardableResult
    public func startAdding(_ edit: ItemEdit = ItemEdit()) throws -> IdentifiedDraft {
        try storage.startAddingDraft(edit)
    }

    /// Starts a draft that copies the item with `itemID` under a new id.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)`` when there is no such item.
    @discardableResult
    public func startDuplicating(itemID: UUID) throws -> IdentifiedDraft {
        try storage.startDuplicatingDraft(itemID: itemID)
    }

    /// The draft with `id`.
    public func draft(id: UUID) throws -> IdentifiedDraft {
        try storage.draft(id: id)
    }

    /// Every open draft, oldest first.
    public func all() throws -> [IdentifiedDraft] {
        try storage.allDrafts()
    }

    /// Applies `edit` to the draft's item. The name may stay empty until the draft is saved.
    @discardableResult
    public func edit(id: UUID, with edit: ItemEdit) throws -> IdentifiedDraft {
        try storage.editDraft(id: id, with: edit)
    }

    /// Saves the draft: inserts its item and deletes the draft, in one transaction.
    ///
    /// - Returns: the new item.
    /// A conflict's draft (`Draft.resolving`) is a resolution instead: the item as edited (or,
    /// when the replica wanted the item deleted and the draft was left as shown, a delete)
    /// replaces the hub's value, by the merge rules (docs/replicas.md). On the hub it is judged
    /// at once; on a replica it is written at once and pushed at the next sync.
    ///
    /// - Throws: `InventoryError/blankName` while the name is blank (the draft is kept).
    @discardableResult
    public func save(id: UUID) throws -> Item {
        try storage.saveDraft(id: id)
    }

    /// Cancels the draft: it is deleted and nothing else changes. Cancelling a conflict's draft
    /// (`Draft.resolving`) resolves the conflict by keeping the hub's value.
    public func cancel(id: UUID) throws {
        try storage.cancelDraft(id: id)
    }

    // MARK: Conflicts (the sync's side)

    /// Opens `conflict` for a person: its `resolving` draft (``Draft/resolution(of:)``) under
    /// the conflict's id. Opening a conflict that already has its draft does nothing (a push
    /// retried after a lost answer, a pull bringing a conflict this database already holds).
    /// Runs in the caller's transaction when there is one.
    ///
    /// - Returns: true when the draft was inserted, false when it was there already.
    @discardableResult
    package func open(_ conflict: Conflict) throws -> Bool {
        try storage.openConflict(conflict)
    }

    /// Deletes the `resolving` draft of the conflict with `id` (the conflict was resolved).
    ///
    /// - Returns: false when there was none.
    @discardableResult
    package func removeConflict(id: UUID) throws -> Bool {
        try storage.removeConflict(id: id)
    }

    /// The conflict with `id`'s draft, or nil when there is no `resolving` draft with that id.
    package func conflictDraft(id: UUID) throws -> IdentifiedDraft? {
        try storage.conflictDraft(id: id)
    }

    /// Every open conflict's draft, oldest first.
    package func openConflicts() throws -> [IdentifiedDraft] {
        try storage.openConflicts()
    }

    /// How many conflicts are open: one count, no draft decoded (the list page's, at each
    /// commit the server observes).
    package func conflictCount() throws -> Int {
        try storage.conflictCount()
    }

    /// Resolves a full draft id or a unique prefix of at least 4 characters, in any letter case.
    public func resolveID(_ text: String) throws -> UUID {
        try storage.resolveDraftID(text)
    }

    /// How many drafts are open.
    public func count() throws -> Int {
        try storage.draftCount()
    }
}

/// What ``DraftRepository`` asks of the engine's connection: ``DraftRecords``' work as
/// requirements of the connection, implemented once below and specialised for each engine's
/// connection type (see ``ItemStorage``).
protocol DraftStorage: StoreConnection {
    func createDraft(_ draft: Draft, id: UUID) throws -> IdentifiedDraft
    func startAddingDraft(_ edit: ItemEdit) throws -> IdentifiedDraft
    func startDuplicatingDraft(itemID: UUID) throws -> IdentifiedDraft
    func draft(id: UUID) throws -> IdentifiedDraft
    func allDrafts() throws -> [IdentifiedDraft]
    func editDraft(id: UUID, with edit: ItemEdit) throws -> IdentifiedDraft
    func saveDraft(id: UUID) throws -> Item
    func cancelDraft(id: UUID) throws
    func resolveDraftID(_ text: String) throws -> UUID
    func draftCount() throws -> Int
    func openConflict(_ conflict: Conflict) throws -> Bool
    func removeConflict(id: UUID) throws -> Bool
    func conflictDraft(id: UUID) throws -> IdentifiedDraft?
    func openConflicts() throws -> [IdentifiedDraft]
    func conflictCount() throws -> Int
}

extension DraftStorage {
    private var records: DraftRecords<Self> { DraftRecords(connection: self) }

    func createDraft(_ draft: Draft, id: UUID) throws -> IdentifiedDraft { try records.create(draft, id: id) }
    func startAddingDraft(_ edit: ItemEdit) throws -> IdentifiedDraft { try records.startAdding(edit) }
    func startDuplicatingDraft(itemID: UUID) throws -> IdentifiedDraft { try records.startDuplicating(itemID: itemID) }
    func draft(id: UUID) throws -> IdentifiedDraft { try records.draft(id: id) }
    func allDrafts() throws -> [IdentifiedDraft] { try records.all() }
    func editDraft(id: UUID, with edit: ItemEdit) throws -> IdentifiedDraft { try records.edit(id: id, with: edit) }
    func saveDraft(id: UUID) throws -> Item { try records.save(id: id) }
    func cancelDraft(id: UUID) throws { try records.cancel(id: id) }
    func resolveDraftID(_ text: String) throws -> UUID { try records.resolveID(text) }
    func draftCount() throws -> Int { try records.count() }
    func openConflict(_ conflict: Conflict) throws -> Bool { try records.open(conflict) }
    func removeConflict(id: UUID) throws -> Bool { try records.removeConflict(id: id) }
    func conflictDraft(id: UUID) throws -> IdentifiedDraft? { try records.conflictDraft(id: id) }
    func openConflicts() throws -> [IdentifiedDraft] { try records.openConflicts() }
    func conflictCount() throws -> Int { try records.conflictCount() }
}

/// The `drafts` table on one engine's connection: what ``DraftRepository`` does, written once.
struct DraftRecords<Connection: StoreConnection> {
    let connection: Connection
    var items: ItemRecords<Connection> { ItemRecords(connection: connection) }

    func create(_ draft: Draft, id: UUID) throws -> IdentifiedDraft {
        try insert(draft, id: id, sql: DraftsTable.insertSQL)
        return IdentifiedDraft(id: id, draft: draft)
    }

    /// Inserts the row with `sql` (``DraftsTable/insertSQL`` or its form that skips an id
    /// already there) and returns the rows it inserted.
    @discardableResult
    private func insert(_ draft: Draft, id: UUID, sql: String) throws -> Int {
        try draft.item.status.validate()
        let now = Timestamp.now()
        return try connection.inTransaction {
            let layout = DraftsTable.layout
            try connection.withStatement(sql) { statement in
                try statement.bind(id, at: layout.id)
                var row = RowBinder(statement, at: layout.draft)
                try DraftCodec.bind(draft, to: &row)
                try statement.bind(now, at: layout.createdAt)
                try statement.bind(now, at: layout.updatedAt)
                try statement.run()
            }
            return connection.changes
        }
    }

    func open(_ conflict: Conflict) throws -> Bool {
        let opened = try insert(Draft.resolution(of: conflict), id: conflict.id, sql: DraftsTable.insertSkippingExistingSQL) > 0
        if opened { try notifyConflictObservers() }
        return opened
    }

    func removeConflict(id: UUID) throws -> Bool {
        try connection.inTransaction {
            try connection.withStatement(DraftsTable.deleteConflictByID) { statement in
                try statement.bind(id, at: 0)
                try statement.run()
            }
            let removed = connection.changes > 0
            if removed { try notifyConflictObservers() }
            return removed
        }
    }

    /// Tells PostgreSQL's observers (``NotificationCommitWatch``) that the open conflicts
    /// changed: a conflict opened or closed without an item's change (a set every field of
    /// which was overtaken, a resolution keeping the hub's value) adds no history, whose
    /// trigger is what notifies. Delivered at commit, never for a rollback. A file needs
    /// nothing: its watch hears every write.
    private func notifyConflictObservers() throws {
        guard connection.dialect == .postgres else { return }
        try connection.withStatement("SELECT pg_notify('\(NotificationCommitWatch.channel)', '')") { statement in
            _ = try statement.step()
        }
    }

    func conflictCount() throws -> Int {
        try connection.withStatement(DraftsTable.countConflicts) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    func conflictDraft(id: UUID) throws -> IdentifiedDraft? {
        try connection.withStatement(DraftsTable.selectConflictByID) { statement in
            try statement.bind(id, at: 0)
            return try statement.step() ? try DraftsTable.decode(statement) : nil
        }
    }

    func openConflicts() throws -> [IdentifiedDraft] {
        try connection.withStatement(DraftsTable.selectConflicts) { statement in
            var drafts: [IdentifiedDraft] = []
            while try statement.step() { drafts.append(try DraftsTable.decode(statement)) }
            return drafts
        }
    }

    func startAdding(_ edit: ItemEdit) throws -> IdentifiedDraft {
        try create(try Draft.newItem().applying(edit), id: UUID.version7())
    }

    func startDuplicating(itemID: UUID) throws -> IdentifiedDraft {
        try connection.inTransaction {
            try create(Draft.duplicate(of: try items.item(id: itemID)), id: UUID.version7())
        }
    }

    /// The draft with `id`; `locking` it for the rest of the transaction on engines with row locks.
    func draft(id: UUID, locking: Bool = false) throws -> IdentifiedDraft {
        let sql = locking ? DraftsTable.selectByID + connection.dialect.lockingRead : DraftsTable.selectByID
        let found = try connection.withStatement(sql) { statement in
            try statement.bind(id, at: 0)
            return try statement.step() ? try DraftsTable.decode(statement) : nil
        }
        guard let found else { throw StoreError.notFound(.draft, id.lowercasedString) }
        return found
    }

    func all() throws -> [IdentifiedDraft] {
        try connection.withStatement(DraftsTable.selectAll) { statement in
            var drafts: [IdentifiedDraft] = []
            while try statement.step() { drafts.append(try DraftsTable.decode(statement)) }
            return drafts
        }
    }

    func edit(id: UUID, with edit: ItemEdit) throws -> IdentifiedDraft {
        try connection.inTransaction {
            var entry = try draft(id: id, locking: true)
            entry.draft = try entry.draft.applying(edit)
            // The whole row but its id and created_at: kind and item_id never change, so
            // rewriting them with the same values keeps one codec binding for insert and update.
            let layout = DraftsTable.updateLayout
            try connection.withStatement(layout.sql) { statement in
                try statement.bind(entry.id, at: layout.id)
                var row = RowBinder(statement, at: layout.draft)
                try DraftCodec.bind(entry.draft, to: &row)
                try statement.bind(Timestamp.now(), at: layout.updatedAt)
                try statement.run()
            }
            return entry
        }
    }

    func save(id: UUID) throws -> Item {
        try connection.inTransaction {
            let entry = try draft(id: id, locking: true)
            // A conflict's draft is a resolution, judged by the merge rules, not a new item.
            if entry.draft.openConflict != nil {
                return try ConflictResolution(connection: connection).resolve(entry, saving: true)
            }
            let item = try entry.draft.itemToSave()
            try items.insert(item)
            try deleteRow(id: id)
            return item
        }
    }

    func cancel(id: UUID) throws {
        try connection.inTransaction {
            let entry = try draft(id: id, locking: true)
            if entry.draft.openConflict != nil {
                try ConflictResolution(connection: connection).resolve(entry, saving: false)
                return
            }
            try deleteRow(id: id)
        }
    }

    func resolveID(_ text: String) throws -> UUID {
        try IDPrefix.resolve(text, in: DraftsTable.name, record: .draft, connection: connection)
    }

    func count() throws -> Int {
        try connection.withStatement(DraftsTable.count) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    private func deleteRow(id: UUID) throws {
        try connection.withStatement(DraftsTable.deleteByID) { statement in
            try statement.bind(id, at: 0)
            try statement.run()
        }
        if connection.changes == 0 { throw StoreError.notFound(.draft, id.lowercasedString) }
    }
}
