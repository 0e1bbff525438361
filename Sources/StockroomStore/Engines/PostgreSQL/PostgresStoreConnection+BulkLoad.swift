import PostgresCore

// PostgreSQL's bulk load and whole-table read (Seam/StoreConnection.swift, `bulkLoad`,
// `scanRows`): rows stream through `COPY ... FROM STDIN` and `COPY ... TO STDOUT` in text
// format, inside the caller's transaction.

extension PostgresStoreConnection {
    func bulkLoad(into table: String, columns: ColumnLayout, _ body: (PostgresCopyRow) throws -> Void) throws {
        _ = try connection.copyIn("COPY \(table) (\(columns.list)) FROM STDIN") { writer in
            try body(PostgresCopyRow(writer))
        }
    }

    /// `COPY table (columns) TO STDOUT`: every row streamed in one statement, in the heap's
    /// order, with no sort, no page query to plan and no whole result held in the client
    /// (``PostgresCore/Connection/copyOut(_:_:)``). The text format prints `bigint` and
    /// `smallint` in decimal.
    func scanRows(of table: String, columns: ColumnLayout,
                  field: (UnsafeBufferPointer<UInt8>?) throws -> Void, endRow: () throws -> Void) throws {
        try connection.copyOut("COPY \(table) (\(columns.list)) TO STDOUT") { row in
            try row.forEachField(field)
            try endRow()
        }
    }

    /// ANALYZE, as a bulk load should ("Populating a Database" in PostgreSQL's manual), so the
    /// first queries after the copy are planned for the rows now there (autovacuum analyzes
    /// only after enough changes, never a small table). Inside the transaction ANALYZE sees
    /// its own uncommitted rows.
    func refreshStatistics(of tables: [String]) throws {
        try connection.execute("ANALYZE \(tables.joined(separator: ", "))")
    }
}

/// The fields of one COPY row, bound as a statement's parameters are: codecs bind in column
/// order, so each value is the next field. Used by the bulk load and by an import's staging
/// COPY (ItemImport+PostgreSQL.swift).
final class PostgresCopyRow: BulkRowSink {
    private let writer: CopyWriter
    private var next = 0

    init(_ writer: CopyWriter) {
        self.writer = writer
    }

    /// Writes a field ahead of the row's bound ones (which still start at position 0): the
    /// import's staging columns before the `items` columns.
    func writeLeadingField(_ value: Int) {
        precondition(next == 0, "leading fields come before the bound ones")
        writer.writeField(value)
    }

    @inline(__always)
    private func field(_ index: Int) {
        precondition(index == next, "COPY fields are bound in column order")
        next += 1
    }

    func bind(_ value: String, at index: Int) throws {
        field(index)
        var text = value
        text.withUTF8 { writer.writeField($0) }
    }

    func bind(_ value: Int, at index: Int) throws {
        field(index)
        writer.writeField(value)
    }

    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        field(index)
        writer.writeField(bytes)
    }

    func bindStatic(_ value: StaticString, at index: Int) throws {
        field(index)
        writer.writeField(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    func bindNull(at index: Int) throws {
        field(index)
        writer.writeNullField()
    }

    func endRow() throws {
        next = 0
        try writer.endRow()
    }
}
