import Foundation
import Inventory
import SQLiteCore

// MARK: - HISTORY HOOK (issue 10)
//
// Called once for every item an import writes (inserted, or replaced with --on-conflict
// replace), inside the import's transaction, after the item's row is written. When item history
// (`item_events`) lands, record the item's first event here, with `time` as its time, so an
// import and its events commit or roll back together. Until then it does nothing.
extension ItemImport {
    @inline(__always)
    static func recordImportedItemEvent(_ id: UUID, row: ImportedRow, time: UnsafeBufferPointer<UInt8>, in database: Database) throws {
    }
}
