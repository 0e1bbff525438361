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
    /// first queries after the copy are planned for the rows now there. Inside the transaction
    /// ANALYZE sees its own uncommitted rows.
    ///
    /// Only the columns some index of the table covers (a key, a unique constraint, a secondary
    /// or the search index): their statistics are what choose between an index and a scan for
    /// Stockroom's queries, and they cost half of a whole ANALYZE, whose statistics of every
    /// column were 6% of a 200k-item copy (BENCHMARKS.md, "Copy into PostgreSQL, second
    /// round"). The other columns' come with autovacuum's ANALYZE after the commit, which a
    /// load of more than 50 rows per table sets off (the in-transaction ANALYZE does not count
    /// the copy's own rows as analysed). A table with no index is analysed whole.
    func refreshStatistics(of tables: [String]) throws {
        let list = tables.map { "'\($0)'" }.joined(separator: ", ")
        let indexed = try connection.query("""
            SELECT t.relname, string_agg(DISTINCT quote_ident(a.attname), ', ') FROM pg_index x
            JOIN pg_class t ON t.oid = x.indrelid
            JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY (x.indkey)
            WHERE t.relname IN (\(list)) AND t.relnamespace = current_schema()::regnamespace
            GROUP BY t.relname
            """)
        var columns: [String: String] = [:]
        for row in indexed { columns[try row.get(String.self, at: 0)] = try row.get(String.self, at: 1) }
        let targets = tables.map { table in columns[table].map { "\(table) (\($0))" } ?? table }
        try connection.execute("ANALYZE \(targets.joined(separator: ", "))")
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
