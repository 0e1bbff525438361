import Foundation
import Inventory

/// One way of doing the workloads' database work. Each implementation opens its own
/// connection with the product's settings (WAL, synchronous=FULL, foreign keys on).
protocol Implementation: AnyObject {
    /// The row label in the results table.
    var name: String { get }
    /// Opens a connection to an already migrated database.
    func open(path: String) throws
    /// Closes the connection.
    func close()
    /// W1: inserts every item in one transaction.
    func insert(_ items: [Item]) throws
    /// W2: reads every item, decoded.
    func fetchAll() throws -> [Item]
    /// W3: in stock, of `color`, name starting with `prefix`, ordered by name then id, first 50.
    func page(color: Color, namePrefix: String) throws -> [Item]
}

/// Implementations that also run W4, the draft cycle.
protocol DraftCycling: Implementation {
    /// W4: duplicate `itemID` into a draft, rename the draft, save it; three transactions.
    func draftCycle(itemID: UUID, newName: String) throws
}

/// The SQL the implementations share, so that they differ only in how they run it.
enum SharedSQL {
    static let insertItem = """
        INSERT INTO items (id, name, color, status, quantity, is_on_back_order, location, created_at, updated_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)
        """
    // No implementation writes history: the schema's triggers record each item's version 1
    // (migration 0004, issue 20), so W1 and W4 compare the same work.
    // Every statement takes the whole item, `location` (migration 0008) included, as Stockroom does.
    static let selectAll = "SELECT id, name, color, status, quantity, is_on_back_order, location FROM items"
    static let page = """
        SELECT id, name, color, status, quantity, is_on_back_order, location FROM items
        WHERE status = 'in_stock' AND color = ?1 AND name >= ?2 AND name < ?2 || char(1114111)
        ORDER BY name, id LIMIT 50
        """
    static let selectItem = "SELECT id, name, color, status, quantity, is_on_back_order, location FROM items WHERE id = ?1"
    static let insertDraft = """
        INSERT INTO drafts (id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, location, created_at, updated_at)
        VALUES (?1, 'duplicating', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)
        """
    static let selectDraft = "SELECT id, kind, source_item_id, item_id, name, color, status, quantity, is_on_back_order, location FROM drafts WHERE id = ?1"
    static let renameDraft = "UPDATE drafts SET name = ?2, updated_at = ?3 WHERE id = ?1"
    static let deleteDraft = "DELETE FROM drafts WHERE id = ?1"
}

/// ISO-8601 UTC "now" with milliseconds for the raw and GRDB implementations (Stockroom makes
/// its own). Cheap on purpose: a formatter object per call would cost more than a commit.
func isoNow() -> String {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    var seconds = spec.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let milliseconds = Int32(spec.tv_nsec / 1_000_000)
    _ = withVaList([parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, milliseconds]) {
        vsnprintf(&buffer, buffer.count, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", $0)
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
