import FoundationEssentials

// An engine's part in `import`. The rules of an import (all or nothing, the conflict
// policies, line-numbered problems in line order with their messages, the history turn, the
// summary) are ItemImport's, written once over `StoreConnection`; an engine supplies only how
// the decoded rows reach `items` (Engines/SQLite/ItemImport+SQLite.swift: a prepared INSERT per
// row as it is read; Engines/PostgreSQL/ItemImport+PostgreSQL.swift: a COPY into a staging
// table, then set-based statements once the input is read).

/// Takes one decoded row of an import, as it is read.
protocol ImportRowWriter: AnyObject {
    /// Takes one row (written at once, or staged); returns why it cannot be written when the
    /// engine knows at once, else nil. `line` is where the row starts in the input.
    func write(id: UUID, row: ImportedRow, line: Int, decoder: ImportRowDecoder, now: [UInt8]) throws -> String?
    /// True when the writer is given every good row, even after a bad one, because the
    /// loader checks them all together once the input is read
    /// (``ImportRowLoader/unwritableRows()``). False when each row is written as it comes, so
    /// that the first bad row stops the writing and the import goes on only to name problems.
    var checksAfterReading: Bool { get }
}

/// How one engine loads an import's rows into `items` under a conflict policy, inside the
/// import's one write transaction (``StoreConnection/importing(_:_:)``).
protocol ImportRowLoader: AnyObject {
    associatedtype Rows: ImportRowWriter
    /// Runs `read`, which decodes the input and hands each good row, in line order, to the
    /// writer it is given.
    func receiving<T>(_ read: (Rows) throws -> T) throws -> T
    /// Once the input is read, holding the history turn: the rows the engine finds it cannot
    /// write (a stored id under `fail`, a deleted item's id) that it did not report as they
    /// came, the first ``ImportRejection/shownLimit`` in line order, and how many in all.
    func unwritableRows() throws -> (problems: [ImportRejection.Problem], total: Int)
    /// When every row is good: writes what is not written yet; what was added and replaced.
    func finish() throws -> ImportLoadResult
}

/// What a loader wrote into `items`.
struct ImportLoadResult {
    /// New items.
    let imported: Int
    /// Stored items overwritten with a row that changed at least one field.
    let replaced: Int
    /// True when the secondary indexes of `items` were dropped for the load and built again.
    let rebuiltIndexes: Bool
}
