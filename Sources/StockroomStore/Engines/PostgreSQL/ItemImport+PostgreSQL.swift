import FoundationEssentials
import Glibc
import Inventory
import PostgresCore

// PostgreSQL's part in `import` (Seam/ImportLoading.swift); the rules (reading, decoding,
// problems, the history turn, the summary) are ItemImport's, as for a file. One INSERT per row
// cost two round trips a row (the row, and its lookup), 16x `psql \copy` (BENCHMARKS.md, issue
// 21). So the decoded rows, with the line each starts on, are COPYed into a temporary staging
// table in the import's transaction; once the input is read, one query finds the ids that
// cannot be written (stored, under `fail`; a deleted item's) by line, and one set-based
// INSERT … SELECT in line order writes the rows: the database's own triggers record each item's
// history in that order, as they did row by row. The whole input is one READ COMMITTED
// transaction, never retried: the input may be standard input, read once.
extension PostgresStoreConnection {
    func importing<T>(_ importer: ItemImport, _ body: (PostgresImportLoader) throws -> T) throws -> T {
        try inTransactionWithoutRetry {
            let staging = PostgresImportStaging(connection: connection, onConflict: importer.onConflict)
            try staging.create()
            return try body(PostgresImportLoader(staging: staging))
        }
    }
}

/// Stages an import's rows with one COPY as they are read; checks and writes them all once the
/// input is read.
final class PostgresImportLoader: ImportRowLoader {
    private let staging: PostgresImportStaging

    init(staging: PostgresImportStaging) {
        self.staging = staging
    }

    func receiving<T>(_ read: (PostgresStagingWriter) throws -> T) throws -> T {
        var result: T?
        try staging.connection.copyIn(staging.copySQL) { copy in
            result = try read(PostgresStagingWriter(copy))
        }
        guard let result else { preconditionFailure("copyIn runs its body") }
        return result
    }

    func unwritableRows() throws -> (problems: [ImportRejection.Problem], total: Int) {
        try staging.unwritableIDs()
    }

    func finish() throws -> ImportLoadResult {
        let (imported, replaced) = try staging.write()
        return ImportLoadResult(imported: imported, replaced: replaced, rebuiltIndexes: false)
    }
}

/// Encodes each good row of an import into the staging table's COPY: its line, whether it
/// named its id and gave its creation time, then the `items` columns as an INSERT binds them
/// (``ItemImport/bind(_:id:decoder:now:to:)``).
final class PostgresStagingWriter: ImportRowWriter {
    private let fields: PostgresCopyRow

    init(_ copy: CopyWriter) { fields = PostgresCopyRow(copy) }

    var checksAfterReading: Bool { true }

    func write(id: UUID, row: ImportedRow, line: Int, decoder: ImportRowDecoder, now: [UInt8]) throws -> String? {
        fields.writeLeadingField(line)
        fields.writeLeadingField(row.id != nil ? 1 : 0)
        fields.writeLeadingField(row.hasCreatedAt ? 1 : 0)
        _ = try ItemImport.bind(row, id: id, decoder: decoder, now: now, to: fields)
        try fields.endRow()
        return nil
    }
}

/// The staging table of one import on a server, and the set-based statements that check its
/// rows and write them into `items`.
struct PostgresImportStaging {
    let connection: Connection
    let onConflict: ItemImport.ConflictPolicy
    /// Temporary, so unlogged and private to the session; dropped at the end of the transaction.
    static let table = "stockroom_import_rows"
    /// The `items` columns an import writes, in bind order.
    private let columns = ItemsTable.insertLayout.columns.names

    /// `line`: where the row starts in the input; `named`: the row gave its id (generated ids
    /// need no check); `dated`: the row gave its creation time (a replace keeps the stored one
    /// otherwise). Then the `items` columns, their types taken from `items` itself.
    func create() throws {
        let list = columns.joined(separator: ", ")
        try connection.execute("""
            CREATE TEMPORARY TABLE \(Self.table) ON COMMIT DROP AS
            SELECT 0::bigint AS line, 0::integer AS named, 0::integer AS dated, \(list) FROM \(ItemsTable.name) WITH NO DATA
            """)
    }

    var copySQL: String {
        "COPY \(Self.table) (line, named, dated, \(columns.joined(separator: ", "))) FROM STDIN"
    }

    /// The first ``ImportRejection/shownLimit`` rows, by line, whose id cannot be written, and
    /// how many there are: a deleted item's id (its history is kept); a stored one under `fail`.
    func unwritableIDs() throws -> (problems: [ImportRejection.Problem], total: Int) {
        let id = columns[ItemsTable.insertLayout.item]
        let deleted = "i.\(id) IS NULL AND EXISTS (SELECT 1 FROM \(ItemEventsTable.name) e WHERE e.\(ItemEventsTable.itemIDColumn) = s.\(id) AND e.version = 1)"
        let refused = onConflict == .fail ? "i.\(id) IS NOT NULL OR \(deleted)" : deleted
        // Planned with the staging table's real size: without statistics the planner guesses.
        try connection.execute("ANALYZE \(Self.table)")
        let result = try connection.query("""
            SELECT s.line, s.\(id), i.\(id) IS NOT NULL, count(*) OVER ()
            FROM \(Self.table) s LEFT JOIN \(ItemsTable.name) i ON i.\(id) = s.\(id)
            WHERE s.named = 1 AND (\(refused))
            ORDER BY s.line LIMIT \(ImportRejection.shownLimit)
            """)
        // The cells point into the result, kept until they are read.
        return withExtendedLifetime(result) {
            let cells = result.cells
            var problems: [ImportRejection.Problem] = []
            var total = 0
            for row in 0..<cells.rowCount {
                guard let line = cells.integer(row: row, column: 0),
                      let given = cells.bytes(row: row, column: 1).flatMap(UUID.init(canonicalUTF8:)) else { continue }
                let stored = cells.bytes(row: row, column: 2)?.first == UInt8(ascii: "t")
                problems.append(.init(line: line, reason: stored ? ItemImport.existingIDProblem(given) : ItemImport.deletedItemProblem(given)))
                total = cells.integer(row: row, column: 3) ?? total
            }
            return (problems, total)
        }
    }

    /// Writes the staged rows into `items` in line order, so the triggers number their events
    /// in that order; returns the items added and the stored items replaced.
    func write() throws -> (imported: Int, replaced: Int) {
        let list = columns.joined(separator: ", ")
        let selected = columns.map { "s.\($0)" }.joined(separator: ", ")
        switch onConflict {
        case .fail:
            // The checks found no stored id, and no writer can add one before COMMIT.
            return (try connection.run("INSERT INTO \(ItemsTable.name) (\(list)) SELECT \(selected) FROM \(Self.table) s ORDER BY s.line"), 0)
        case .skip:
            return (try connection.run("""
                INSERT INTO \(ItemsTable.name) (\(list)) SELECT \(selected) FROM \(Self.table) s ORDER BY s.line
                ON CONFLICT (\(columns[ItemsTable.insertLayout.item])) DO NOTHING
                """), 0)
        case .replace:
            return try replace()
        }
    }

    /// `--on-conflict replace`: one INSERT … ON CONFLICT DO UPDATE in line order, so an added
    /// item's 'added' and a replaced item's 'changed' come in the order of their rows, as row
    /// by row. A stored item that the row would not change (its name, colour and status as
    /// Swift compares them, as ``ItemImport/Replacement`` does) is left alone and no event is
    /// written: PostgreSQL compares names byte by byte, Swift by canonical equivalence, so the
    /// rows whose names differ only in their bytes are asked of Swift first.
    private func replace() throws -> (imported: Int, replaced: Int) {
        let layout = ItemsTable.insertLayout
        let id = columns[layout.item]
        let fields = ItemsTable.itemColumns.filter { $0 != id }
        let name = fields[0]
        let others = fields.dropFirst()
        let unchangedElse = others.map { "i.\($0) IS NOT DISTINCT FROM s.\($0)" }.joined(separator: " AND ")
        // Names in other bytes can only be canonically equal if one is not ASCII.
        let candidates = try connection.query("""
            SELECT s.line, i.\(name), s.\(name) FROM \(Self.table) s JOIN \(ItemsTable.name) i ON i.\(id) = s.\(id)
            WHERE i.\(name) <> s.\(name) AND \(unchangedElse)
              AND (octet_length(i.\(name)) <> char_length(i.\(name)) OR octet_length(s.\(name)) <> char_length(s.\(name)))
            """)
        let equalLines = withExtendedLifetime(candidates) {
            let cells = candidates.cells
            return (0..<cells.rowCount).compactMap { row -> String? in
                guard let stored = cells.bytes(row: row, column: 1), let given = cells.bytes(row: row, column: 2),
                      String(decoding: stored, as: UTF8.self) == String(decoding: given, as: UTF8.self),
                      let line = cells.integer(row: row, column: 0) else { return nil }
                return String(line)
            }
        }
        if !equalLines.isEmpty {
            try connection.run("DELETE FROM \(Self.table) WHERE line = ANY($1::bigint[])", "{\(equalLines.joined(separator: ","))}")
        }
        let list = columns.joined(separator: ", ")
        let selected = columns.indices.map { index in
            // A row without a creation time keeps the stored item's.
            index == layout.createdAt
                ? "CASE WHEN s.dated = 1 OR i.\(id) IS NULL THEN s.\(columns[index]) ELSE i.\(columns[index]) END"
                : "s.\(columns[index])"
        }.joined(separator: ", ")
        let changed = "(" + fields.map { "i.\($0)" }.joined(separator: ", ") + ") IS DISTINCT FROM ("
            + fields.map { "s.\($0)" }.joined(separator: ", ") + ")"
        let assignments = columns.filter { $0 != id }.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        // xmax is 0 in a row version that an INSERT made, and not in one an ON CONFLICT
        // DO UPDATE made (it holds the conflict's row lock): which rows were added.
        let written = try connection.query("""
            WITH written AS (
                INSERT INTO \(ItemsTable.name) (\(list))
                SELECT \(selected) FROM \(Self.table) s LEFT JOIN \(ItemsTable.name) i ON i.\(id) = s.\(id)
                WHERE i.\(id) IS NULL OR \(changed)
                ORDER BY s.line
                ON CONFLICT (\(id)) DO UPDATE SET \(assignments)
                RETURNING xmax = 0 AS added)
            SELECT count(*) FILTER (WHERE added), count(*) FILTER (WHERE NOT added) FROM written
            """)
        return withExtendedLifetime(written) {
            (written.cells.integer(row: 0, column: 0) ?? 0, written.cells.integer(row: 0, column: 1) ?? 0)
        }
    }
}
