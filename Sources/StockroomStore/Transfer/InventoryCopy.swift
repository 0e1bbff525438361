import FoundationEssentials
import Glibc
import PostgresCore
import SQLiteCore
import StockroomMigrations

/// Moves a whole inventory (items, their history, drafts) from one database to another, file
/// or server, in one transaction on the destination.
///
/// The source is only read, in one read transaction (one snapshot); a file source stays
/// byte-identical. Each row is decoded through the codecs, so a row that does not decode stops
/// the copy before it commits. Into PostgreSQL the rows stream through `COPY ... FROM STDIN`;
/// into SQLite through one prepared INSERT per table. Secondary indexes are dropped before the
/// load and built again after it, as a bulk load should. Before committing, the destination's
/// rows are read back in key order and compared with the source's: the same count and the same
/// ``RowChecksum`` per table, or nothing is committed.
public enum InventoryCopy {
    /// The tables copied, in order; each one's `rawValue` is its name in the database.
    public enum Table: RawRepresentable, CaseIterable, Sendable {
        case items
        case itemEvents
        case drafts

        /// The table's name, from the type that describes it.
        public var rawValue: String {
            switch self {
            case .items: ItemsTable.name
            case .itemEvents: ItemEventsTable.name
            case .drafts: DraftsTable.name
            }
        }

        /// The table named `rawValue`, nil for any other.
        public init?(rawValue: String) {
            guard let table = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = table
        }
    }

    /// Where a copy has got to.
    public enum Progress: Sendable {
        /// `rows` of `total` rows of `table` written.
        case copying(Table, rows: Int, total: Int)
        /// Building the destination's secondary indexes.
        case indexing
        /// `rows` of `total` rows of `table` read back and compared.
        case verifying(Table, rows: Int, total: Int)
    }

    /// What a finished copy moved.
    public struct Summary: Sendable, Equatable {
        /// Rows copied per table.
        public let rows: [Table: Int]
        /// The checksum both sides agreed on: 16 hexadecimal digits over every table's rows.
        public let checksum: String
        /// True when the destination held an inventory that the copy replaced (`--force`).
        public let replaced: Bool
    }

    /// Rows read per query from the source, and read back from the destination.
    static let pageSize = 10_000

    /// Copies everything at `source` into `destination`.
    ///
    /// - Parameters:
    ///   - replacing: replace a destination that already holds items, history or drafts;
    ///     without it such a destination is refused before anything is written.
    ///   - progress: called as rows are written and verified.
    /// - Throws: ``CopyError``; either engine's errors (``SQLiteCore/SQLiteError``,
    ///   ``PostgresCore/PostgresError``: busy, server gone, a constraint the destination refused);
    ///   ``DatabaseFileError`` or ``MigrationError`` for a database that cannot be opened as an
    ///   inventory. On any failure the destination holds what it held before (a destination
    ///   file the copy created is removed again; a server database keeps the schema the copy
    ///   migrated it to, without rows).
    public static func run(from source: DatabaseLocation, to destination: DatabaseLocation, replacing: Bool,
                           busyTimeoutMilliseconds: Int32 = 5_000,
                           progress: (Progress) -> Void = { _ in }) throws -> Summary {
        if source == destination { throw CopyError.sameDatabase(source.description) }
        if case .file(let from) = source {
            guard FileManager.default.fileExists(atPath: from) else { throw CopyError.sourceMissing(from) }
            if case .file(let to) = destination, DurableFile.isSameFile(from, to) {
                throw CopyError.sameDatabase(source.description)
            }
        }
        let reader = try InventoryStore.reading(location: source, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                                contents: .itemHistoryPositions)
        if !replacing {
            let found = try existingRows(at: destination, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            if found.values.contains(where: { $0 > 0 }) { throw CopyError.destinationNotEmpty(destination.description, rows: found) }
        }

        var createdFile: String?
        if case .file(let path) = destination, !FileManager.default.fileExists(atPath: path) { createdFile = path }
        var isCopied = false
        defer { if !isCopied, let createdFile { DurableFile.removeDatabaseFiles(createdFile) } }
        let writer = try InventoryStore(location: destination, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let summary = try reader.read {
            try Destination(engine: writer.engine, description: destination.description).transaction { destination in
                let found = try destination.rowCounts()
                if found.values.contains(where: { $0 > 0 }) {
                    guard replacing else { throw CopyError.destinationNotEmpty(destination.description, rows: found) }
                }
                return try destination.withHistoryTriggersSuspended {
                    if found.values.contains(where: { $0 > 0 }) { try destination.removeEverything() }
                    return try copyAll(from: Source(engine: reader.engine), into: destination,
                                       replaced: found.values.contains(where: { $0 > 0 }), progress: progress)
                }
            }
        }
        isCopied = true
        return summary
    }

    /// Loads every table, rebuilds the indexes, then reads the destination back and compares.
    private static func copyAll(from source: Source, into destination: Destination, replaced: Bool,
                                progress: (Progress) -> Void) throws -> Summary {
        let totals = try source.rowCounts()
        let indexes = try destination.secondaryIndexes()
        try indexes.drop(destination.execute)

        var written: [Table: TableDigest] = [:]
        written[.items] = try destination.load(CopiedItem.self, from: source, total: totals[.items] ?? 0, progress: progress)
        written[.itemEvents] = try destination.load(CopiedEvent.self, from: source, total: totals[.itemEvents] ?? 0, progress: progress)
        written[.drafts] = try destination.load(CopiedDraft.self, from: source, total: totals[.drafts] ?? 0, progress: progress)

        progress(.indexing)
        try indexes.create(destination.execute)
        try destination.analyzeLoadedTables()

        var readBack: [Table: TableDigest] = [:]
        readBack[.items] = try destination.verify(CopiedItem.self, total: written[.items]!.rows, progress: progress)
        readBack[.itemEvents] = try destination.verify(CopiedEvent.self, total: written[.itemEvents]!.rows, progress: progress)
        readBack[.drafts] = try destination.verify(CopiedDraft.self, total: written[.drafts]!.rows, progress: progress)

        let whole = RowChecksum()
        for table in Table.allCases {
            let sent = written[table]!, found = readBack[table]!
            guard sent == found else {
                throw CopyError.verificationFailed(table: table.rawValue, sourceRows: sent.rows, destinationRows: found.rows,
                                                   sourceChecksum: sent.checksum, destinationChecksum: found.checksum)
            }
            whole.fold(found.checksumValue)
        }
        return Summary(rows: written.mapValues(\.rows), checksum: whole.hex, replaced: replaced)
    }

    /// Items, history and drafts already at `location`, read without changing anything; a
    /// database too old to have a table has none of its rows.
    static func existingRows(at location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws -> [Table: Int] {
        if case .file(let path) = location, !FileManager.default.fileExists(atPath: path) { return [:] }
        var rows: [Table: Int] = [:]
        let items = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: .items)
        rows[.items] = try items.items.count()
        let drafts = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: .drafts)
        rows[.drafts] = try drafts.drafts.count()
        do {
            let history = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: .itemHistory)
            rows[.itemEvents] = try Source(engine: history.engine).count(ItemEventsTable.name)
        } catch DatabaseFileError.needsMigration {
            rows[.itemEvents] = 0
        }
        return rows
    }
}

/// A table's rows as one side saw them: how many, and their checksum.
struct TableDigest: Equatable {
    let rows: Int
    let checksumValue: RowChecksum
    var checksum: String { checksumValue.hex }

    static func == (left: TableDigest, right: TableDigest) -> Bool {
        left.rows == right.rows && left.checksumValue.value == right.checksumValue.value
    }
}

// MARK: - Reading

/// Rows read in key order, a page at a time, from either engine.
private struct Source {
    let engine: InventoryStore.Connections

    func count(_ table: String) throws -> Int {
        switch engine {
        case .sqlite(let database): try Self.count(table, in: database)
        case .postgres(let connection): try Self.count(table, in: connection)
        }
    }

    func rowCounts() throws -> [InventoryCopy.Table: Int] {
        var counts: [InventoryCopy.Table: Int] = [:]
        for table in InventoryCopy.Table.allCases { counts[table] = try count(table.rawValue) }
        return counts
    }

    /// Calls `body` with every row of `Row`'s table, in key order.
    func forEach<Row: CopiedRow>(_ type: Row.Type, _ body: (Row) throws -> Void) throws {
        switch engine {
        case .sqlite(let database): try Self.forEach(type, in: database, body)
        case .postgres(let connection): try Self.forEach(type, in: connection, body)
        }
    }

    static func count<Connection: StoreConnection>(_ table: String, in connection: Connection) throws -> Int {
        try connection.withStatement("SELECT count(*) FROM \(table)") { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// Pages of rows, each resuming after the last key of the one before (keyset pagination):
    /// the same SQL on both engines, and a server never holds more than a page for us.
    static func forEach<Row: CopiedRow, Connection: StoreConnection>(
        _ type: Row.Type, in connection: Connection, _ body: (Row) throws -> Void
    ) throws {
        let keys = Row.keyColumns.joined(separator: ", ")
        let select = "SELECT \(Row.columns.list) FROM \(Row.table)"
        let keyCount = Row.keyColumns.count
        let after = keyCount == 1 ? "\(keys) > ?1"
            : "(\(keys)) > (\((1...keyCount).map { "?\($0)" }.joined(separator: ", ")))"
        // The page size is spelled in the SQL, not bound: PostgreSQL's generic plan for a
        // prepared `LIMIT $n` cannot count on a small limit and may sort the whole table per page.
        let first = "\(select) ORDER BY \(keys) LIMIT \(InventoryCopy.pageSize)"
        let next = "\(select) WHERE \(after) ORDER BY \(keys) LIMIT \(InventoryCopy.pageSize)"
        var last: Row?
        while true {
            let sql = last == nil ? first : next
            let rows = try connection.withStatement(sql) { statement -> Int in
                if let last { try last.bindKey(to: statement) }
                var rows = 0
                while try statement.step() {
                    let row: Row
                    do {
                        row = try Row(reading: statement)
                    } catch let error as ColumnDecodingError {
                        let key = Row.keyColumns.indices.map { index in
                            "\(Row.keyColumns[index]) \(statement.describeColumn(at: Row.columns.names.firstIndex(of: Row.keyColumns[index]) ?? index))"
                        }
                        throw CopyError.undecodableRow(table: Row.table, key: key.joined(separator: ", "), reason: error.reason)
                    }
                    try body(row)
                    last = row
                    rows += 1
                }
                return rows
            }
            if rows < InventoryCopy.pageSize { return }
        }
    }
}

// MARK: - Writing

/// The destination's connection inside the copy's transaction.
private struct Destination {
    let engine: InventoryStore.Connections

    /// The destination as messages name it (a URI without its password).
    let description: String

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (Destination) throws -> T) throws -> T {
        switch engine {
        case .sqlite(let database): try database.inTransactionWithoutRetry { try body(self) }
        case .postgres(let connection): try connection.inTransactionWithoutRetry { try body(self) }
        }
    }

    func rowCounts() throws -> [InventoryCopy.Table: Int] { try Source(engine: engine).rowCounts() }

    /// Runs `body` with the triggers of `items` and `item_events` set aside, inside the copy's
    /// transaction (DDL is transactional on both engines: a failed copy rolls back to the
    /// triggers as they were). The copy writes rows and their history verbatim, positions
    /// included: the history triggers would add a second 'added' event per item and refuse
    /// events written in key order rather than position order, and the append-only triggers
    /// refuse the deletes of `--force`. The source's rows were decoded and are compared after
    /// loading, so nothing written here goes unchecked.
    ///
    /// How each engine sets them aside: ``StoreConnection/withTriggersSuspended(on:_:)``.
    func withHistoryTriggersSuspended<T>(_ body: () throws -> T) throws -> T {
        let tables = [ItemsTable.name, ItemEventsTable.name]
        return switch engine {
        case .sqlite(let database): try database.withTriggersSuspended(on: tables, body)
        case .postgres(let connection): try connection.withTriggersSuspended(on: tables, body)
        }
    }

    /// Deletes every item, event and draft: the one time history is deleted, with the triggers
    /// that refuse it set aside (``withHistoryTriggersSuspended(_:)``).
    func removeEverything() throws {
        let tables = InventoryCopy.Table.allCases.map(\.rawValue)
        switch engine {
        case .sqlite(let database): try database.removeAllRows(of: tables)
        case .postgres(let connection): try connection.removeAllRows(of: tables)
        }
    }

    /// The indexes of the copied tables that are not a key or unique constraint.
    func secondaryIndexes() throws -> SecondaryIndexes {
        let tables = InventoryCopy.Table.allCases.map(\.rawValue)
        switch engine {
        case .sqlite(let database): return try SecondaryIndexes(of: tables, on: database)
        case .postgres(let connection): return try SecondaryIndexes(of: tables, on: connection)
        }
    }

    /// Gives PostgreSQL's planner statistics on the tables just loaded, as a bulk load should
    /// ("Populating a Database" in PostgreSQL's manual). Without them the verification's
    /// keyset page on `item_events`, `(item_id, version) > ($1, $2)`, is planned as a
    /// sequential scan and a sort of every remaining row, page after page: quadratic in the
    /// history's size (BENCHMARKS.md, `copy` into PostgreSQL). Runs inside the copy's
    /// transaction, where ANALYZE sees its own uncommitted rows. Nothing on SQLite, whose
    /// pages follow the primary key without statistics.
    func analyzeLoadedTables() throws {
        guard case .postgres = engine else { return }
        try execute("ANALYZE \(InventoryCopy.Table.allCases.map(\.rawValue).joined(separator: ", "))")
    }

    /// Writes every row of `Row`'s table from `source`: COPY into PostgreSQL, one prepared
    /// INSERT into SQLite.
    func load<Row: CopiedRow>(_ type: Row.Type, from source: Source, total: Int,
                              progress: (InventoryCopy.Progress) -> Void) throws -> TableDigest {
        let table = InventoryCopy.Table(rawValue: Row.table)!
        let checksum = RowChecksum()
        var rows = 0
        progress(.copying(table, rows: 0, total: total))
        func counted() {
            rows += 1
            if rows % 10_000 == 0 { progress(.copying(table, rows: rows, total: total)) }
        }
        func wrote(_ row: Row) throws {
            try row.bind(to: checksum)
            checksum.endRow()
            counted()
        }
        switch engine {
        case .sqlite(let database):
            let insert = try database.prepare("INSERT INTO \(Row.table) (\(Row.columns.list)) VALUES (\(Row.columns.placeholders))")
            try source.forEach(type) { row in
                try row.bind(to: insert)
                try insert.run()
                insert.reset()
                try wrote(row)
            }
        case .postgres(let store):
            try store.connection.copyIn("COPY \(Row.table) (\(Row.columns.list)) FROM STDIN") { writer in
                // Bound once: each value goes to the COPY and into the checksum together.
                let fields = CopyFields(writer, checksum: checksum)
                try source.forEach(type) { row in
                    try row.bind(to: fields)
                    try fields.endRow()
                    counted()
                }
            }
        }
        progress(.copying(table, rows: rows, total: total))
        return TableDigest(rows: rows, checksumValue: checksum)
    }

    /// Reads `Row`'s table back, in key order, into a digest.
    func verify<Row: CopiedRow>(_ type: Row.Type, total: Int, progress: (InventoryCopy.Progress) -> Void) throws -> TableDigest {
        let table = InventoryCopy.Table(rawValue: Row.table)!
        let checksum = RowChecksum()
        var rows = 0
        progress(.verifying(table, rows: 0, total: total))
        try Source(engine: engine).forEach(type) { row in
            try row.bind(to: checksum)
            checksum.endRow()
            rows += 1
            if rows % 10_000 == 0 { progress(.verifying(table, rows: rows, total: total)) }
        }
        progress(.verifying(table, rows: rows, total: total))
        return TableDigest(rows: rows, checksumValue: checksum)
    }

    func execute(_ sql: String) throws {
        switch engine {
        case .sqlite(let database): try database.execute(sql)
        case .postgres(let connection): try connection.execute(sql)
        }
    }

}

/// The fields of one COPY row, bound as a statement's parameters are: codecs bind in column
/// order, so each value is the next field. Each value also goes into `checksum`, as binding the
/// row to the checksum would put it, so a row is bound (and its id formatted) once.
private final class CopyFields: ParameterSink {
    let writer: CopyWriter
    let checksum: RowChecksum
    private var next = 0

    init(_ writer: CopyWriter, checksum: RowChecksum) {
        self.writer = writer
        self.checksum = checksum
    }

    @inline(__always)
    private func field(_ index: Int) {
        precondition(index == next, "COPY fields are bound in column order")
        next += 1
    }

    func bind(_ value: String, at index: Int) throws {
        field(index)
        var text = value
        try text.withUTF8 { bytes in
            writer.writeField(bytes)
            // The checksum reads a String as its UTF-8 text (RowChecksum.bind).
            try checksum.bindText(bytes, at: index)
        }
    }

    func bind(_ value: Int, at index: Int) throws {
        field(index)
        writer.writeField(value)
        try checksum.bind(value, at: index)
    }

    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        field(index)
        writer.writeField(bytes)
        try checksum.bindText(bytes, at: index)
    }

    func bindStatic(_ value: StaticString, at index: Int) throws {
        field(index)
        writer.writeField(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        try checksum.bindStatic(value, at: index)
    }

    func bindNull(at index: Int) throws {
        field(index)
        writer.writeNullField()
        try checksum.bindNull(at: index)
    }

    func endRow() throws {
        next = 0
        checksum.endRow()
        try writer.endRow()
    }
}
