import Foundation
import Inventory
import SQLiteCore

/// Reads and writes the `drafts` table, and turns drafts into items.
public struct DraftRepository {
    let database: Database
    let items: ItemRepository

    static let columns = "id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order"

    /// Stores a new draft and returns it with its id.
    @discardableResult
    public func create(_ draft: Draft, id: UUID = UUID.version7()) throws -> IdentifiedDraft {
        try draft.item.status.validate()
        let entry = IdentifiedDraft(id: id, draft: draft)
        let now = Timestamp.now()
        try database.inTransaction {
            try database.withStatement("""
                INSERT INTO drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, created_at, updated_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)
                """) { statement in
                try statement.bind(entry.id, at: 0)
                try DraftKindColumns.bind(draft, to: statement, at: 1)
                try ItemColumns.bind(draft.item, to: statement, at: 3)
                try statement.bind(now, at: 9)
                try statement.run()
            }
        }
        return entry
    }

    /// Starts a draft for a new item: empty name, no colour, in stock 1, then `edit` applied.
    @discardableResult
    public func startAdding(_ edit: ItemEdit = ItemEdit()) throws -> IdentifiedDraft {
        try create(try Draft.newItem().applying(edit))
    }

    /// Starts a draft that copies the item with `itemID` under a new id.
    ///
    /// - Throws: ``StoreError/notFound(_:_:)`` when there is no such item.
    @discardableResult
    public func startDuplicating(itemID: UUID) throws -> IdentifiedDraft {
        try database.inTransaction {
            try create(Draft.duplicate(of: try items.item(id: itemID)))
        }
    }

    /// The draft with `id`.
    public func draft(id: UUID) throws -> IdentifiedDraft {
        let found = try database.withStatement("SELECT \(DraftRepository.columns) FROM drafts WHERE id = ?") { statement in
            try statement.bind(id, at: 0)
            return try statement.step() ? try DraftRepository.decode(statement) : nil
        }
        guard let found else { throw StoreError.notFound(.draft, id.lowercasedString) }
        return found
    }

    /// Every open draft, oldest first.
    public func all() throws -> [IdentifiedDraft] {
        try database.withStatement("SELECT \(DraftRepository.columns) FROM drafts ORDER BY created_at, id") { statement in
            var drafts: [IdentifiedDraft] = []
            while try statement.step() { drafts.append(try DraftRepository.decode(statement)) }
            return drafts
        }
    }

    /// Applies `edit` to the draft's item. The name may stay empty until the draft is saved.
    @discardableResult
    public func edit(id: UUID, with edit: ItemEdit) throws -> IdentifiedDraft {
        try database.inTransaction {
            var entry = try draft(id: id)
            entry.draft = try entry.draft.applying(edit)
            try database.withStatement("""
                UPDATE drafts SET name = ?2, color = ?3, status = ?4, quantity = ?5, is_on_back_order = ?6, updated_at = ?7
                WHERE id = ?1
                """) { statement in
                let item = entry.draft.item
                try statement.bind(entry.id, at: 0)
                try statement.bind(item.name, at: 1)
                try ColorColumn.bind(item.color, to: statement, at: 2)
                try StatusColumns.bind(item.status, to: statement, at: 3)
                try statement.bind(Timestamp.now(), at: 6)
                try statement.run()
            }
            return entry
        }
    }

    /// Saves the draft: inserts its item and deletes the draft, in one transaction.
    ///
    /// - Returns: the new item.
    /// - Throws: ``InventoryError/blankName`` while the name is blank (the draft is kept).
    @discardableResult
    public func save(id: UUID) throws -> Item {
        try database.inTransaction {
            let item = try draft(id: id).draft.itemToSave()
            try items.insert(item)
            try deleteRow(id: id)
            return item
        }
    }

    /// Cancels the draft: it is deleted and nothing else changes.
    public func cancel(id: UUID) throws {
        try database.inTransaction { try deleteRow(id: id) }
    }

    /// Resolves a full draft id or a unique prefix of at least 4 characters, in any letter case.
    public func resolveID(_ text: String) throws -> UUID {
        try IDPrefix.resolve(text, in: "drafts", record: .draft, database: database)
    }

    /// How many drafts are open.
    public func count() throws -> Int {
        try database.withStatement("SELECT count(*) FROM drafts") { statement in
            try statement.step()
            return statement.int(at: 0)
        }
    }

    private func deleteRow(id: UUID) throws {
        try database.withStatement("DELETE FROM drafts WHERE id = ?") { statement in
            try statement.bind(id, at: 0)
            try statement.run()
        }
        if database.changes == 0 { throw StoreError.notFound(.draft, id.lowercasedString) }
    }

    static func decode(_ statement: Statement) throws -> IdentifiedDraft {
        do {
            guard let id = statement.withText(at: 0, { UUID(canonicalUTF8: $0) }) else {
                throw ColumnDecodingError(reason: "id is not a UUID")
            }
            let item = try ItemColumns.decode(from: statement, at: 3)
            return IdentifiedDraft(id: id, draft: try DraftKindColumns.decode(from: statement, at: 1, item: item))
        } catch let error as ColumnDecodingError {
            throw StoreError.undecodableRow(table: "drafts", id: statement.text(at: 0), reason: error.reason)
        }
    }
}
