import FoundationEssentials
import Inventory
import SQLiteCore

// SQLite's part in `import` (Seam/ImportLoading.swift): each row is written as it is read, with
// one prepared INSERT reused for every row; the database's triggers record each written item's
// history. Not staged in a temporary table as on a server: a server saves a round trip per row
// that a file does not pay, and the staging table lives in memory here (temp_store = MEMORY,
// below), which measured 33 MB more at 200k rows (sqlite3 shell, 61 MB against 28 MB peak), so
// about 165 MB more at W7's million: past its 200 MB budget (BENCHMARKS.md, "Seam, second round").

extension Database {
    func importing<T>(_ importer: ItemImport, _ body: (SQLiteImportLoader) throws -> T) throws -> T {
        // Each row's INSERT fires the history triggers, so it writes three B-trees and may
        // abort (RAISE, CHECKs): SQLite gives every such statement a statement journal. With
        // the default temp_store, once one statement's journal passes 64 KiB it becomes a temp
        // file that every later statement of the transaction rewrites with pwrite(2): ten
        // system calls a row, 2M for 200k rows (BENCHMARKS.md, issue 20). SQLite decides where
        // statement journals live when the write transaction begins, so memory is asked for
        // before it; a statement's journal holds only the pages that one row touched.
        let temporaryStorage = try withStatement("PRAGMA temp_store") { try $0.step() ? $0.int(at: 0) : 0 }
        try execute("PRAGMA temp_store = MEMORY")
        defer { try? execute("PRAGMA temp_store = \(temporaryStorage)") }
        return try writeTransaction {
            if let cache = importer.loadCacheKiB { try execute("PRAGMA cache_size = -\(cache)") }
            defer { if importer.loadCacheKiB != nil { try? execute("PRAGMA cache_size = -2000") } }
            return try body(try SQLiteImportLoader(database: self, onConflict: importer.onConflict))
        }
    }
}

/// Writes an import's rows into a file as they come; into an empty `items`, with its secondary
/// indexes dropped until the load ends.
final class SQLiteImportLoader: ImportRowLoader {
    private let database: Database
    private let before: Int
    private let rebuild: SecondaryIndexes?
    private let writer: SQLiteImportRowWriter

    init(database: Database, onConflict: ItemImport.ConflictPolicy) throws {
        self.database = database
        before = try ItemRecords(connection: database).count()
        rebuild = before == 0 ? try SecondaryIndexes(of: [ItemsTable.name], on: database) : nil
        try rebuild?.drop(database.execute)
        writer = try SQLiteImportRowWriter(database: database, onConflict: onConflict)
    }

    func receiving<T>(_ read: (SQLiteImportRowWriter) throws -> T) throws -> T {
        try read(writer)
    }

    /// None: each row's refusal was reported as it was written, or looked up after a bad row.
    func unwritableRows() throws -> (problems: [ImportRejection.Problem], total: Int) {
        ([], 0)
    }

    func finish() throws -> ImportLoadResult {
        try rebuild?.create(database.execute)
        return ImportLoadResult(imported: try ItemRecords(connection: database).count() - before,
                                replaced: writer.replacement?.replaced ?? 0, rebuiltIndexes: rebuild != nil)
    }
}

/// Writes rows with prepared statements reused for every row; the database's triggers record
/// each written item's history.
final class SQLiteImportRowWriter: ImportRowWriter {
    let database: Database
    let insert: SQLiteCore.Statement
    /// ``ItemImport/lookupSQL``: tells a deleted item's id from another refusal.
    let lookup: SQLiteCore.Statement
    /// For `replace` only: reads and overwrites a stored item whose id a row names.
    let replacement: ItemImport.Replacement<Database>?

    init(database: Database, onConflict: ItemImport.ConflictPolicy) throws {
        self.database = database
        // With replace too the INSERT leaves a stored item alone: the stored item is read first,
        // so that only a row that changes something is written (only for the ids that conflict).
        insert = try database.prepare(onConflict == .fail ? ItemsTable.insertSQL : ItemsTable.insertSkippingExistingSQL)
        lookup = try database.prepare(ItemImport.lookupSQL)
        replacement = onConflict == .replace ? try ItemImport.Replacement(connection: database) : nil
    }

    var checksAfterReading: Bool { false }

    /// Writes one row; returns why it could not be written, or nil.
    @inline(__always)
    func write(id: UUID, row: ImportedRow, line: Int, decoder: ImportRowDecoder, now: [UInt8]) throws -> String? {
        defer { insert.reset() }
        let (item, created, updated) = try ItemImport.bind(row, id: id, decoder: decoder, now: now, to: insert)
        do {
            try insert.run()
        } catch let error as SQLiteError where error.isConstraintViolation {
            if error.isPrimaryKeyViolation { return ItemImport.existingIDProblem(id) }
            // The history trigger refuses the id of a deleted item (its history is kept).
            if case .deleted = try ItemImport.stored(id, lookup: lookup) { return ItemImport.deletedItemProblem(id) }
            return "the database refused the row: \(error.message)"
        }
        // Written (the trigger recorded version 1), or the id is stored already: skip leaves
        // it; replace overwrites it.
        guard database.changes != 1, let replacement else { return nil }
        return try updated.withUnsafeBufferPointer { time in
            try created.withUnsafeBufferPointer { created in
                try replacement.replace(with: item, created: row.hasCreatedAt ? created : nil, updated: time)
            }
        }
    }
}
