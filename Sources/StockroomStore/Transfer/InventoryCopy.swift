import FoundationEssentials
import Glibc
import StockroomMigrations
import TextFormats

/// Moves a whole inventory (items, their history, drafts) from one database to another, file
/// or server, in one transaction on the destination.
///
/// The source is only read, in one read transaction (one snapshot); a file source stays
/// byte-identical. Each row is decoded through the codecs, so a row that does not decode stops
/// the copy before it commits. Into PostgreSQL the rows stream through `COPY ... FROM STDIN`;
/// into SQLite through one prepared INSERT per table. Secondary indexes are dropped before the
/// load and built again after it, as a bulk load should. Before committing, every row of the
/// destination is read back (in one streamed read per table, in whatever order the engine reads
/// fastest) and compared with the source's: the same count and the same `RowChecksum` per
/// table, or nothing is committed.
public enum InventoryCopy {
    /// The tables copied, in order; each one's `rawValue` is its name in the database.
    public enum Table: RawRepresentable, CaseIterable, Sendable {
        /// `items`: the inventory itself.
        case items
        /// `item_events`: the history, with its positions kept.
        case itemEvents
        /// `drafts`: unsaved drafts.
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

    /// Copies the inventory, the busy timeout in milliseconds.
    @available(*, deprecated, renamed: "run(from:to:replacing:busyTimeout:progress:)")
    public static func run(from source: DatabaseLocation, to destination: DatabaseLocation, replacing: Bool,
                           busyTimeoutMilliseconds: Int32,
                           progress: (Progress) -> Void = { _ in }) throws -> Summary {
        try run(from: source, to: destination, replacing: replacing, busyTimeout: .milliseconds(busyTimeoutMilliseconds), progress: progress)
    }

    /// Copies everything at `source` into `destination`.
    ///
    /// - Parameters:
    ///   - source: the database copied from.
    ///   - destination: the database copied into, created and migrated when missing.
    ///   - busyTimeout: how long each side waits for another writer's lock.
    ///   - replacing: replace a destination that already holds items, history or drafts;
    ///     without it such a destination is refused before anything is written.
    ///   - progress: called as rows are written and verified.
    /// - Throws: ``CopyError``; either engine's errors (`SQLiteCore/SQLiteError`,
    ///   `PostgresCore/PostgresError`: busy, server gone, a constraint the destination refused);
    ///   ``DatabaseFileError`` or `MigrationError` for a database that cannot be opened as an
    ///   inventory. On any failure the destination holds what it held before (a destination
    ///   file the copy created is removed again; a server database keeps the schema the copy
    ///   migrated it to, without rows).
    public static func run(from source: DatabaseLocation, to destination: DatabaseLocation, replacing: Bool,
                           busyTimeout: Duration = .seconds(5),
                           progress: (Progress) -> Void = { _ in }) throws -> Summary {
        let busyTimeoutMilliseconds = busyTimeout.clampedMilliseconds
        if source == destination { throw CopyError.sameDatabase(source.description) }
        if let from = source.filePath {
            guard FileManager.default.fileExists(atPath: from) else { throw CopyError.sourceMissing(from) }
            if let to = destination.filePath, DurableFile.isSameFile(from, to) {
                throw CopyError.sameDatabase(source.description)
            }
        }
        if let path = destination.filePath, let replica = try ReplicaSync.rememberedRecord(path: path) {
            throw CopyError.destinationIsReplica(destination.description, hub: replica.hubURI)
        }
        let reader = try InventoryStore.reading(location: source, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                                contents: .itemHistoryPositions)
        if !replacing {
            let found = try existingRows(at: destination, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            if found.values.contains(where: { $0 > 0 }) { throw CopyError.destinationNotEmpty(destination.description, rows: found) }
        }

        var createdFile: String?
        if let path = destination.filePath, !FileManager.default.fileExists(atPath: path) { createdFile = path }
        var isCopied = false
        defer { if !isCopied, let createdFile { DurableFile.removeDatabaseFiles(createdFile) } }
        let writer = try InventoryStore(location: destination, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        // The one dispatch: each pair of engines runs its own specialised copy of the generic
        // implementation below.
        let summary = try reader.read {
            switch (reader.connection.concrete, writer.connection.concrete) {
            case (.sqlite(let from), .sqlite(let to)):
                try copy(from: from, to: to, description: destination.description, replacing: replacing, progress: progress)
            case (.sqlite(let from), .postgres(let to)):
                try copy(from: from, to: to, description: destination.description, replacing: replacing, progress: progress)
            case (.postgres(let from), .sqlite(let to)):
                try copy(from: from, to: to, description: destination.description, replacing: replacing, progress: progress)
            case (.postgres(let from), .postgres(let to)):
                try copy(from: from, to: to, description: destination.description, replacing: replacing, progress: progress)
            }
        }
        isCopied = true
        return summary
    }

    /// The copy inside the source's read transaction: one write transaction on the destination.
    private static func copy<From: StoreConnection, To: StoreConnection>(
        from source: From, to connection: To, description: String, replacing: Bool,
        progress: (Progress) -> Void
    ) throws -> Summary {
        let destination = Destination(connection: connection, description: description)
        return try destination.transaction { destination in
            let found = try destination.rowCounts()
            if found.values.contains(where: { $0 > 0 }) {
                guard replacing else { throw CopyError.destinationNotEmpty(destination.description, rows: found) }
            }
            return try destination.withHistoryTriggersSuspended {
                if found.values.contains(where: { $0 > 0 }) { try destination.removeEverything() }
                return try copyAll(from: Source(connection: source), into: destination,
                                   replaced: found.values.contains(where: { $0 > 0 }), progress: progress)
            }
        }
    }

    /// Loads every table, rebuilds the indexes, then reads the destination back and compares.
    private static func copyAll<From: StoreConnection, To: StoreConnection>(
        from source: Source<From>, into destination: Destination<To>, replaced: Bool,
        progress: (Progress) -> Void
    ) throws -> Summary {
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

        for table in Table.allCases {
            let sent = written[table]!, found = readBack[table]!
            guard sent == found else {
                throw CopyError.verificationFailed(table: table.rawValue, sourceRows: sent.rows, destinationRows: found.rows,
                                                   sourceChecksum: sent.checksum, destinationChecksum: found.checksum)
            }
        }
        let whole = RowChecksum.whole(Table.allCases.map { readBack[$0]!.checksumValue })
        return Summary(rows: written.mapValues(\.rows), checksum: whole, replaced: replaced)
    }

    /// Items, history and drafts already at `location`, read without changing anything; a
    /// database too old to have a table has none of its rows.
    static func existingRows(at location: DatabaseLocation, busyTimeoutMilliseconds: Int32) throws -> [Table: Int] {
        if let path = location.filePath, !FileManager.default.fileExists(atPath: path) { return [:] }
        var rows: [Table: Int] = [:]
        let items = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: .items)
        rows[.items] = try items.items.count()
        let drafts = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: .drafts)
        rows[.drafts] = try drafts.drafts.count()
        do {
            let history = try InventoryStore.reading(location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, contents: .itemHistory)
            rows[.itemEvents] = try history.rowCount(of: ItemEventsTable.name)
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
private struct Source<Connection: StoreConnection> {
    let connection: Connection

    func rowCounts() throws -> [InventoryCopy.Table: Int] {
        var counts: [InventoryCopy.Table: Int] = [:]
        for table in InventoryCopy.Table.allCases { counts[table] = try connection.rowCount(of: table.rawValue) }
        return counts
    }

    /// Pages of rows, each resuming after the last key of the one before (keyset pagination):
    /// the same SQL on both engines, and a server never holds more than a page for us.
    func forEach<Row: CopiedRow>(_ type: Row.Type, _ body: (Row) throws -> Void) throws {
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
private struct Destination<Connection: StoreConnection> {
    let connection: Connection

    /// The destination as messages name it (a URI without its password).
    let description: String

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (Destination) throws -> T) throws -> T {
        try connection.inTransactionWithoutRetry { try body(self) }
    }

    func rowCounts() throws -> [InventoryCopy.Table: Int] { try Source(connection: connection).rowCounts() }

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
        try connection.withTriggersSuspended(on: [ItemsTable.name, ItemEventsTable.name], body)
    }

    /// Deletes every item, event and draft: the one time history is deleted, with the triggers
    /// that refuse it set aside (``withHistoryTriggersSuspended(_:)``).
    func removeEverything() throws {
        try connection.removeAllRows(of: InventoryCopy.Table.allCases.map(\.rawValue))
    }

    /// The indexes of the copied tables that are not a key or unique constraint.
    func secondaryIndexes() throws -> SecondaryIndexes {
        try SecondaryIndexes(of: InventoryCopy.Table.allCases.map(\.rawValue), on: connection)
    }

    /// Gives the planner statistics on the tables just loaded
    /// (``StoreConnection/refreshStatistics(of:)``).
    func analyzeLoadedTables() throws {
        try connection.refreshStatistics(of: InventoryCopy.Table.allCases.map(\.rawValue))
    }

    /// Writes every row of `Row`'s table from `source` through the engine's bulk load
    /// (``StoreConnection/bulkLoad(into:columns:_:)``).
    func load<Row: CopiedRow, From: StoreConnection>(_ type: Row.Type, from source: Source<From>, total: Int,
                                                     progress: (InventoryCopy.Progress) -> Void) throws -> TableDigest {
        let table = InventoryCopy.Table(rawValue: Row.table)!
        let checksum = RowChecksum()
        var rows = 0
        progress(.copying(table, rows: 0, total: total))
        try connection.bulkLoad(into: Row.table, columns: Row.columns) { loader in
            // Bound once: each value goes to the load and into the checksum together.
            let fields = ChecksummedRow(loader, checksum: checksum)
            try source.forEach(type) { row in
                try row.bind(to: fields)
                try fields.endRow()
                rows += 1
                if rows % 10_000 == 0 { progress(.copying(table, rows: rows, total: total)) }
            }
        }
        progress(.copying(table, rows: rows, total: total))
        return TableDigest(rows: rows, checksumValue: checksum)
    }

    /// Reads every row of `Row`'s table back as the destination stored it, into a digest:
    /// each value's text as the engine gives it, which is the text the source's decoded value
    /// was bound as (``RowChecksum``), so nothing is decoded again. One streamed read, in no
    /// particular order (``StoreConnection/scanRows(of:columns:field:endRow:)``).
    func verify<Row: CopiedRow>(_ type: Row.Type, total: Int, progress: (InventoryCopy.Progress) -> Void) throws -> TableDigest {
        let table = InventoryCopy.Table(rawValue: Row.table)!
        let checksum = RowChecksum()
        var rows = 0
        progress(.verifying(table, rows: 0, total: total))
        try connection.scanRows(of: Row.table, columns: Row.columns) { field in
            if let field { try checksum.bindText(field, at: 0) } else { try checksum.bindNull(at: 0) }
        } endRow: {
            checksum.endRow()
            rows += 1
            if rows % 10_000 == 0 { progress(.verifying(table, rows: rows, total: total)) }
        }
        progress(.verifying(table, rows: rows, total: total))
        return TableDigest(rows: rows, checksumValue: checksum)
    }

    func execute(_ sql: String) throws {
        try connection.execute(sql)
    }
}

/// A row of a bulk load whose values also go into `checksum`, as binding the row to the
/// checksum would put them, so a row is bound (and its id formatted) once.
private final class ChecksummedRow<Loader: BulkRowSink>: ParameterSink {
    let loader: Loader
    let checksum: RowChecksum

    init(_ loader: Loader, checksum: RowChecksum) {
        self.loader = loader
        self.checksum = checksum
    }

    func bind(_ value: String, at index: Int) throws {
        var text = value
        try text.withUTF8 { bytes in
            try loader.bindText(bytes, at: index)
            // The checksum reads a String as its UTF-8 text (RowChecksum.bind).
            try checksum.bindText(bytes, at: index)
        }
    }

    func bind(_ value: Int, at index: Int) throws {
        try loader.bind(value, at: index)
        try checksum.bind(value, at: index)
    }

    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        try loader.bindText(bytes, at: index)
        try checksum.bindText(bytes, at: index)
    }

    func bindStatic(_ value: StaticString, at index: Int) throws {
        try loader.bindStatic(value, at: index)
        try checksum.bindStatic(value, at: index)
    }

    func bindNull(at index: Int) throws {
        try loader.bindNull(at: index)
        try checksum.bindNull(at: index)
    }

    func endRow() throws {
        try loader.endRow()
        checksum.endRow()
    }
}
