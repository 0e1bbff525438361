import FoundationEssentials
import Glibc
import Inventory

/// The `items` table, described once: its name, its columns and the layouts every statement on
/// it is built from. The repositories, import, export, copy, check and search take the table
/// from here; `Migrations/` creates it, and `TableSchemaTests` checks the two agree on both
/// engines.
enum ItemsTable {
    /// The table's name.
    static let name = "items"
    /// The primary key.
    static let key = "id"

    /// The columns an `Item` is read from, in decoding order (`id, name, color, status, …`).
    static let itemColumns = ItemCodec.columns()
    /// ``itemColumns`` as an SQL list.
    static let selectColumns = ColumnLayout.of(itemColumns).list

    /// The item's columns then `created_at, updated_at`, with each group's bind position: every
    /// column of the table, in the order items are inserted, exported and copied.
    struct InsertLayout {
        let columns: ColumnLayout
        let item: Int, createdAt: Int, updatedAt: Int

        init() {
            var columns = ColumnLayout()
            item = columns.add(ItemCodec.columns())
            createdAt = columns.add("created_at")
            updatedAt = columns.add("updated_at")
            self.columns = columns
        }
    }

    static let insertLayout = InsertLayout()
    static let insertSQL = "INSERT INTO \(name) (\(insertLayout.columns.list)) VALUES (\(insertLayout.columns.placeholders))"
    /// ``insertSQL`` that leaves a row whose id is stored already (`import --on-conflict skip`
    /// or `replace`), changing nothing for it (``StoreConnection/changes`` is 0).
    static let insertSkippingExistingSQL = "\(insertSQL) ON CONFLICT (\(key)) DO NOTHING"

    /// Binds `item` and `now` (as both times) to an ``insertSQL`` statement and runs it.
    @inline(__always)
    static func bindInsert<Statement: StoreStatement>(_ item: Item, now: String, to statement: Statement) throws {
        let layout = insertLayout
        var row = RowBinder(statement, at: layout.item)
        try ItemCodec.bind(item, to: &row)
        try statement.bind(now, at: layout.createdAt)
        try statement.bind(now, at: layout.updatedAt)
        try statement.run()
    }

    /// The UPDATE of an item's fields and `updated_at`, by id.
    struct UpdateLayout {
        let sql: String
        let item: Int, updatedAt: Int

        init() {
            var columns = ColumnLayout()
            item = columns.add(ItemCodec.columns())
            updatedAt = columns.add("updated_at")
            let id = columns.names[item]
            let assignments = columns.assignments(skipping: id)
            sql = "UPDATE \(ItemsTable.name) SET \(assignments) WHERE \(id) = ?\(item + 1)"
        }
    }

    static let updateLayout = UpdateLayout()

    /// Every item, in storage order.
    static let selectAll = "SELECT \(selectColumns) FROM \(name)"
    /// The item with the id bound first.
    static let selectByID = "SELECT \(selectColumns) FROM \(name) WHERE \(key) = ?"
    static let deleteByID = "DELETE FROM \(name) WHERE \(key) = ?"
    static let count = "SELECT count(*) FROM \(name)"

    /// Decodes one row selected with ``selectColumns``.
    @inline(__always)
    static func decode<Source: ColumnSource>(_ statement: Source) throws -> Item {
        do {
            var row = RowReader(statement)
            return try ItemCodec.decode(from: &row)
        } catch {
            throw StoreError.undecodableRow(table: name, id: statement.text(at: 0), reason: error.reason)
        }
    }
}
