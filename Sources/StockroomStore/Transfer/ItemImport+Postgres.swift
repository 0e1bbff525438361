import FoundationEssentials
import Glibc
import Inventory
import PostgresCore

// An import into a PostgreSQL server: the same readers, row decoding, checks and history as
// into a file (ItemImport.load), written through the engine seam instead of SQLite's bulk
// path. The whole input is one READ COMMITTED transaction, never retried: the input may be
// standard input, read once. A key violation would abort a server's transaction, so rows are
// inserted with ON CONFLICT DO NOTHING and the change count says what happened.
extension ItemImport {
    /// Imports the rows read from `descriptor` into `store`, a file or a server, with the same
    /// result, summary and history on either engine.
    ///
    /// With ``dryRun`` the store is only read. On a server nothing is committed unless every
    /// row is good; a killed or refused import leaves the server as it was.
    ///
    /// - Throws: as ``run(reading:into:progress:)``; ``PostgresError`` from a server.
    public func run(reading descriptor: Int32, into store: InventoryStore, progress: (Progress) -> Void = { _ in }) throws -> Summary {
        switch store.engine {
        case .sqlite(let database):
            return try run(reading: descriptor, into: database, progress: progress)
        case .postgres(let connection):
            guard format == .csv || format == .jsonl else {
                throw ImportRejection(problems: [.init(line: 1, reason: "import reads csv or jsonl, not \(format.rawValue)")], total: 1)
            }
            if dryRun {
                return try store.read {
                    try load(descriptor, lookup: try connection.cachedStatement(ItemImport.lookupSQL),
                             writer: nil as PostgresRowWriter?, progress: progress)
                }
            }
            return try connection.connection.transaction(isolation: .readCommitted) {
                let writer = try PostgresRowWriter(connection: connection, onConflict: onConflict)
                let summary = try load(descriptor, lookup: try connection.cachedStatement(ItemImport.lookupSQL),
                                       writer: writer, progress: progress)
                let replaced = writer.replacement?.replaced ?? 0
                return Summary(rows: summary.rows, imported: writer.inserted,
                               skipped: onConflict == .fail ? 0 : summary.rows - writer.inserted - replaced,
                               replaced: replaced, dryRun: false, rebuiltIndexes: false)
            }
        }
    }
}

/// Writes rows into a server one prepared INSERT at a time; the server's triggers record each
/// new item's version 1 and each replaced item's change, as into a file.
final class PostgresRowWriter: ImportRowWriter {
    let connection: PostgresStoreConnection
    let insert: PostgresStoreStatement
    /// ``ItemImport/lookupSQL``, run before inserting a row that names its id: the trigger's
    /// refusal of a deleted item's id would abort the transaction, and the import goes on
    /// reading to report every bad row.
    let lookup: PostgresStoreStatement
    let onConflict: ItemImport.ConflictPolicy
    let replacement: ItemImport.Replacement<PostgresStoreConnection>?
    /// New items written so far.
    private(set) var inserted = 0

    init(connection: PostgresStoreConnection, onConflict: ItemImport.ConflictPolicy) throws {
        self.connection = connection
        self.onConflict = onConflict
        // A stored id never raises an error here (it would abort the transaction, and the
        // import goes on reading to report every bad row): the change count tells.
        insert = try connection.cachedStatement(ItemsTable.insertSkippingExistingSQL)
        lookup = try connection.cachedStatement(ItemImport.lookupSQL)
        replacement = onConflict == .replace ? try ItemImport.Replacement(connection: connection) : nil
    }

    func write(id: UUID, row: ImportedRow, decoder: ImportRowDecoder, now: [UInt8]) throws -> String? {
        if row.id != nil, case .deleted = try ItemImport.stored(id, lookup: lookup) {
            return ItemImport.deletedItemProblem(id)
        }
        defer { insert.reset() }
        let (item, created, updated) = try ItemImport.bind(row, id: id, decoder: decoder, now: now, to: insert)
        try insert.run()
        if connection.changes == 1 {
            inserted += 1
            return nil
        }
        switch onConflict {
        case .fail: return ItemImport.existingIDProblem(id)
        case .skip: return nil
        case .replace:
            guard let replacement else { return nil }
            return try updated.withUnsafeBufferPointer { time in
                try created.withUnsafeBufferPointer { created in
                    try replacement.replace(with: item, created: row.hasCreatedAt ? created : nil, updated: time)
                }
            }
        }
    }
}
