import FoundationEssentials
import Glibc
import Inventory

/// The `drafts` table, described once: its name, its columns and the layouts every statement on
/// it is built from (``DraftRecords``, copy, check). `Migrations/` creates it, and
/// `TableSchemaTests` checks the two agree on both engines.
enum DraftsTable {
    /// The table's name.
    static let name = "drafts"
    /// The primary key.
    static let key = "id"
    /// The migration that added the `resolving` kind and its conflict columns (0012): an older
    /// file is read with them stood in for by NULL (`Database.readOlderColumns(schemaVersion:)`).
    static let conflictsAddedIn = 12

    /// `id`, the draft's columns, then `created_at, updated_at`, with each group's bind position.
    struct Layout {
        let columns: ColumnLayout
        let id: Int, draft: Int, createdAt: Int, updatedAt: Int

        init() {
            var columns = ColumnLayout()
            id = columns.add(DraftsTable.key)
            draft = columns.add(DraftCodec.columns())
            createdAt = columns.add("created_at")
            updatedAt = columns.add("updated_at")
            self.columns = columns
        }
    }

    static let layout = Layout()
    static let insertSQL = "INSERT INTO \(name) (\(layout.columns.list)) VALUES (\(layout.columns.placeholders))"

    /// The UPDATE of a draft by id: every column but `id` and `created_at`, numbered without
    /// gaps (PostgreSQL must infer the type of every parameter it is given).
    struct UpdateLayout {
        let sql: String
        let id: Int, draft: Int, updatedAt: Int

        init() {
            var columns = ColumnLayout()
            id = columns.add(DraftsTable.key)
            draft = columns.add(DraftCodec.columns())
            updatedAt = columns.add("updated_at")
            sql = "UPDATE \(DraftsTable.name) SET \(columns.assignments(skipping: DraftsTable.key)) WHERE \(DraftsTable.key) = ?\(id + 1)"
        }
    }

    static let updateLayout = UpdateLayout()
    /// The columns a draft is read from, in decoding order.
    static let selectColumns = ColumnLayout.of([key] + DraftCodec.columns()).list
    static let selectByID = "SELECT \(selectColumns) FROM \(name) WHERE \(key) = ?"
    /// Every draft, oldest first.
    static let selectAll = "SELECT \(selectColumns) FROM \(name) ORDER BY created_at, \(key)"
    static let deleteByID = "DELETE FROM \(name) WHERE \(key) = ?"
    /// The insert that skips a draft whose id is there already: a conflict opened twice.
    static let insertSkippingExistingSQL = "\(insertSQL) ON CONFLICT (\(key)) DO NOTHING"
    /// The condition of a conflict's draft.
    static let isConflict = "\(DraftCodec.tagColumn) = \(DraftCodec.literal(.resolving))"
    static let selectConflictByID = "SELECT \(selectColumns) FROM \(name) WHERE \(key) = ? AND \(isConflict)"
    /// Every conflict's draft, oldest first.
    static let selectConflicts = "SELECT \(selectColumns) FROM \(name) WHERE \(isConflict) ORDER BY created_at, \(key)"
    static let deleteConflictByID = "DELETE FROM \(name) WHERE \(key) = ? AND \(isConflict)"
    static let count = "SELECT count(*) FROM \(name)"
    /// How many conflicts are open.
    static let countConflicts = "SELECT count(*) FROM \(name) WHERE \(isConflict)"

    /// Decodes one row selected with ``selectColumns``.
    static func decode<Source: ColumnSource>(_ statement: Source) throws -> IdentifiedDraft {
        do {
            var row = RowReader(statement)
            let idIndex = row.next()
            guard let id = statement.uuid(at: idIndex) else {
                throw ColumnDecodingError(reason: "id \(statement.describeColumn(at: idIndex)) is not a UUID")
            }
            return IdentifiedDraft(id: id, draft: try DraftCodec.decode(from: &row))
        } catch let error as ColumnDecodingError {
            throw StoreError.undecodableRow(table: name, id: statement.text(at: 0), reason: error.reason)
        }
    }
}
