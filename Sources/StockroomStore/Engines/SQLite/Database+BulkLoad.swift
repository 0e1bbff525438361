import SQLiteCore

// SQLite's bulk load and whole-table read (Seam/StoreConnection.swift, `bulkLoad`, `scanRows`):
// one INSERT prepared for the load and run once per row, inside the caller's write transaction.

extension Database {
    func bulkLoad(into table: String, columns: ColumnLayout, _ body: (SQLiteRowInserter) throws -> Void) throws {
        let insert = try prepare("INSERT INTO \(table) (\(columns.list)) VALUES (\(columns.placeholders))")
        try body(SQLiteRowInserter(insert))
    }

    /// Nothing: SQLite reads by key without statistics, and a copy's pages follow the key.
    func refreshStatistics(of tables: [String]) throws {}

    /// One SELECT stepped through: SQLite makes each row as it is stepped to, and gives an
    /// INTEGER's text in decimal.
    func scanRows(of table: String, columns: ColumnLayout,
                  field: (UnsafeBufferPointer<UInt8>?) throws -> Void, endRow: () throws -> Void) throws {
        let select = try prepare("SELECT \(columns.list) FROM \(table)")
        let count = columns.names.count
        while try select.step() {
            for index in 0..<count {
                if select.isNull(at: index) {
                    try field(nil)
                } else {
                    try select.withText(at: index) { try field($0) }
                }
            }
            try endRow()
        }
    }
}

/// A row of a bulk load into SQLite: bound to the prepared INSERT, run at the row's end.
final class SQLiteRowInserter: BulkRowSink {
    private let insert: SQLiteCore.Statement

    init(_ insert: SQLiteCore.Statement) {
        self.insert = insert
    }

    @inline(__always)
    func bind(_ value: String, at index: Int) throws { try insert.bind(value, at: index) }

    @inline(__always)
    func bind(_ value: Int, at index: Int) throws { try insert.bind(value, at: index) }

    @inline(__always)
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws { try insert.bindText(bytes, at: index) }

    @inline(__always)
    func bindStatic(_ value: StaticString, at index: Int) throws { try insert.bindStatic(value, at: index) }

    @inline(__always)
    func bindNull(at index: Int) throws { try insert.bindNull(at: index) }

    /// Runs the INSERT, then resets it for the next row.
    func endRow() throws {
        try insert.run()
        insert.reset()
    }
}
