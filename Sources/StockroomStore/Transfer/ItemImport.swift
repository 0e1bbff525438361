import FoundationEssentials
import Glibc
import Inventory
import SQLiteCore

/// Loads items from CSV or JSON Lines into the `items` table: all of them or none.
///
/// The whole file is read in one write transaction. Every row is decoded and checked against
/// the domain's rules; the first bad row stops the writing, reading goes on to report every bad
/// row, and the transaction is rolled back. A process killed at any point leaves the database
/// as it was, since nothing is committed before the last row.
///
/// Into an empty table the secondary indexes of `items` are dropped first and rebuilt after the
/// load, from their own SQL in `sqlite_schema` (so the layout stays in Migrations/ only), in
/// the same transaction; a sorted index build is several times faster than a million random
/// inserts into three B-trees. Into a table that has rows, the indexes are used as they are.
public struct ItemImport {
    /// What to do with a row whose id is already in the database.
    public enum ConflictPolicy: String, Sendable, CaseIterable {
        /// Refuse the import, naming the ids.
        case fail
        /// Keep the stored item and leave the row out.
        case skip
        /// Overwrite the stored item with the row.
        case replace
    }

    /// How far an import has got.
    public struct Progress: Sendable {
        /// Rows read so far.
        public let rows: Int
        /// Bytes of input read so far.
        public let bytesRead: Int
    }

    /// What an import did (or, in a dry run, would do).
    public struct Summary: Sendable, Equatable {
        /// Rows read from the input.
        public let rows: Int
        /// New items added.
        public let imported: Int
        /// Rows left out because their id existed (`--on-conflict skip`), or because the stored
        /// item already held exactly the row's fields (`--on-conflict replace`: nothing to write).
        public let skipped: Int
        /// Stored items overwritten with a row that changed at least one field (`--on-conflict replace`).
        public let replaced: Int
        /// True when nothing was written.
        public let dryRun: Bool
        /// True when the indexes were rebuilt after loading an empty table.
        public let rebuiltIndexes: Bool
    }

    /// The input's format: `.csv` or `.jsonl`.
    public var format: TransferFormat
    /// What to do with ids that already exist.
    public var onConflict: ConflictPolicy
    /// Check everything, write nothing.
    public var dryRun: Bool
    /// Rows between two progress reports.
    public var progressInterval = 16_384
    /// Page cache for the load, in KiB (SQLite's negative `cache_size`), or nil for SQLite's
    /// default (2 MiB). Measured on 1M rows (BENCHMARKS.md, W7), a 64 MiB cache made the load
    /// slower, in Stockroom and in the sqlite3 shell alike, so the default is kept.
    public var loadCacheKiB: Int? = nil

    public init(format: TransferFormat, onConflict: ConflictPolicy = .fail, dryRun: Bool = false) {
        self.format = format
        self.onConflict = onConflict
        self.dryRun = dryRun
    }

    /// Imports the rows read from `descriptor` into `store`, a file or a server, with the same
    /// result, summary and history on either engine; dispatched once to the engine's path
    /// (a file's bulk load, a server's COPY into staging: Engines/PostgreSQL/).
    ///
    /// With ``dryRun`` the store is only read. Nothing is written unless every row is good.
    ///
    /// - Throws: ``ImportRejection`` when any row is bad or (with ``ConflictPolicy/fail``)
    ///   names an existing id; ``TransferError`` when the input cannot be read; the engine's
    ///   errors (busy, I/O, a lost connection) as they come.
    public func run(reading descriptor: Int32, into store: InventoryStore, progress: (Progress) -> Void = { _ in }) throws -> Summary {
        switch store.engine {
        case .sqlite(let database): try run(reading: descriptor, into: database, progress: progress)
        case .postgres(let connection): try run(reading: descriptor, into: connection, store: store, progress: progress)
        }
    }

    /// Imports the rows read from `descriptor` into `database`.
    ///
    /// With ``dryRun``, `database` may be nil (no database yet): then no id can conflict.
    ///
    /// - Throws: ``ImportRejection`` when any row is bad or (with ``ConflictPolicy/fail``)
    ///   names an existing id; nothing was written. ``TransferError`` when the input cannot be
    ///   read; SQLite errors (busy, I/O) as they come.
    func run(reading descriptor: Int32, into database: Database?, progress: (Progress) -> Void = { _ in }) throws -> Summary {
        precondition(database != nil || dryRun, "an import that writes needs a database")
        guard format == .csv || format == .jsonl else {
            throw ImportRejection(problems: [.init(line: 1, reason: "import reads csv or jsonl, not \(format.rawValue)")], total: 1)
        }
        guard let database, !dryRun else {
            let lookup = try database.map { try $0.prepare(ItemImport.lookupSQL) }
            return try load(descriptor, lookup: lookup, writer: nil as RowWriter?, progress: progress)
        }
        // Each row's INSERT fires the history triggers, so it writes three B-trees and may
        // abort (RAISE, CHECKs): SQLite gives every such statement a statement journal. With
        // the default temp_store, once one statement's journal passes 64 KiB it becomes a temp
        // file that every later statement of the transaction rewrites with pwrite(2): ten
        // system calls a row, 2M for 200k rows (BENCHMARKS.md, issue 20). SQLite decides where
        // statement journals live when the write transaction begins, so memory is asked for
        // before it; a statement's journal holds only the pages that one row touched.
        let temporaryStorage = try database.withStatement("PRAGMA temp_store") { try $0.step() ? $0.int(at: 0) : 0 }
        try database.execute("PRAGMA temp_store = MEMORY")
        defer { try? database.execute("PRAGMA temp_store = \(temporaryStorage)") }
        return try database.writeTransaction {
            let before = try ItemRepository(database: database).count()
            let rebuild = before == 0 ? try SecondaryIndexes(of: [ItemsTable.name], on: database) : nil
            if let loadCacheKiB { try database.execute("PRAGMA cache_size = -\(loadCacheKiB)") }
            defer { if loadCacheKiB != nil { try? database.execute("PRAGMA cache_size = -2000") } }
            try rebuild?.drop(database.execute)
            // The database's triggers write each item's history as its row is written.
            let writer = try RowWriter(database: database, onConflict: onConflict)
            let summary = try load(descriptor, lookup: try database.prepare(ItemImport.lookupSQL), writer: writer, progress: progress)
            try rebuild?.create(database.execute)
            let written = try ItemRepository(database: database).count() - before
            let replaced = writer.replacement?.replaced ?? 0
            return Summary(rows: summary.rows, imported: written,
                           skipped: onConflict == .fail ? 0 : summary.rows - written - replaced,
                           replaced: replaced, dryRun: false, rebuiltIndexes: rebuild != nil)
        }
    }

    /// Reads every row; writes them with `writer` while no row has been bad. `lookup`
    /// (``lookupSQL``) names stored and deleted ids when nothing is written, as the writer would. Generic so that each engine's
    /// path is specialised: SQLite's makes the same direct calls as before PostgreSQL's existed.
    func load<Writer: ImportRowWriter, Lookup: StoreStatement>(
        _ descriptor: Int32, lookup: Lookup?, writer: Writer?, progress: (Progress) -> Void
    ) throws -> Summary {
        let (summary, problems) = try read(descriptor, lookup: lookup, writer: writer, progress: progress)
        guard problems.isEmpty else { throw problems.rejection }
        return summary
    }

    /// ``load(_:lookup:writer:progress:)`` returning the bad rows found instead of throwing
    /// them, for a writer that checks its rows after the reading (``ImportRowWriter/checksAfterReading``)
    /// and adds the problems it finds. Throws at once only for an input that has no rows at all.
    func read<Writer: ImportRowWriter, Lookup: StoreStatement>(
        _ descriptor: Int32, lookup: Lookup?, writer: Writer?, progress: (Progress) -> Void
    ) throws -> (Summary, ProblemList) {
        let input = ByteInput(descriptor: descriptor)
        let decoder = ImportRowDecoder()
        var problems = ProblemList()
        var seenIDs: [UUID: Int32] = [:]
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            // About 100 bytes a row: sized once instead of rehashed as it grows.
            seenIDs.reserveCapacity(Int(info.st_size) / 100)
        }
        var rows = 0
        // Stored ids a dry run would skip or replace, and stored items a replace would leave as
        // they are (no field differs: skipped, as the real import counts them).
        var existing = 0
        var unchanged = 0
        let now = Array(Timestamp.now().utf8)

        func accept(_ row: ImportedRow, line: Int) throws {
            let id: UUID
            if let given = row.id {
                if let first = seenIDs.updateValue(Int32(clamping: line), forKey: given) {
                    seenIDs[given] = first
                    problems.add(line: line, "duplicate id \(given.lowercasedString) (first on line \(first))")
                    return
                }
                id = given
                // What is stored under the id: for a dry run, and, once a bad row has stopped
                // the writing, to keep naming the ids the writer would have refused (rows of
                // this import are repeats, caught above).
                if let lookup, writer == nil || !problems.isEmpty {
                    switch try ItemImport.stored(id, lookup: lookup) {
                    case .none: break
                    case .deleted:
                        problems.add(line: line, ItemImport.deletedItemProblem(id))
                    case .stored(let item):
                        switch onConflict {
                        case .fail: problems.add(line: line, ItemImport.existingIDProblem(id))
                        case .skip: existing += 1
                        case .replace:
                            if ItemChanges(from: item, to: Item(id: id, name: row.name, color: row.color, status: row.status)) == nil {
                                unchanged += 1
                            } else {
                                existing += 1
                            }
                        }
                    }
                }
            } else {
                id = UUID.version7()
            }
            guard let writer, problems.isEmpty || writer.checksAfterReading else { return }
            if let problem = try writer.write(id: id, row: row, line: line, decoder: decoder, now: now) {
                problems.add(line: line, problem)
            }
        }

        func report() {
            if rows % progressInterval == 0 { progress(Progress(rows: rows, bytesRead: input.bytesRead)) }
        }

        switch format {
        case .csv:
            let reader = CSVReader(input: input)
            var columns: ImportRowDecoder.CSVColumns?
            while true {
                let more: Bool
                do {
                    more = try reader.next()
                } catch let error as CSVReader.SyntaxError {
                    if columns == nil { throw ImportRejection(problems: [.init(line: error.line, reason: error.reason)], total: 1) }
                    rows += 1
                    problems.add(line: error.line, error.reason)
                    report()
                    continue
                }
                guard more else { break }
                guard let known = columns else {
                    do {
                        columns = try ImportRowDecoder.CSVColumns(header: reader)
                    } catch {
                        throw ImportRejection(problems: [.init(line: reader.recordLine, reason: (error as? RowProblem)?.reason ?? "\(error)")], total: 1)
                    }
                    continue
                }
                rows += 1
                do {
                    try accept(try decoder.decode(reader, columns: known), line: reader.recordLine)
                } catch let problem as RowProblem {
                    problems.add(line: reader.recordLine, problem.reason)
                }
                report()
            }
            if columns == nil { throw ImportRejection(problems: [.init(line: 1, reason: "the file is empty: a CSV import needs a header row")], total: 1) }
        case .jsonl, .json:
            let lines = LineReader(input: input)
            while let line = try lines.next() {
                if line.isBlank { continue }
                rows += 1
                do {
                    try accept(try line.withBytes { bytes in try decoder.decode(jsonLine: bytes) }, line: line.number)
                } catch let problem as RowProblem {
                    problems.add(line: line.number, problem.reason)
                }
                report()
            }
        }
        progress(Progress(rows: rows, bytesRead: input.bytesRead))
        return (Summary(rows: rows, imported: rows - existing - unchanged,
                        skipped: onConflict == .skip ? existing : unchanged,
                        replaced: onConflict == .replace ? existing : 0,
                        dryRun: true, rebuiltIndexes: false), problems)
    }
}

/// Writes one decoded row into the database of an import.
protocol ImportRowWriter: AnyObject {
    /// Writes one row (the database records its history); returns why it could not be
    /// written, or nil. `line` is where the row starts in the input.
    func write(id: UUID, row: ImportedRow, line: Int, decoder: ImportRowDecoder, now: [UInt8]) throws -> String?
    /// True when the writer is given every good row, even after a bad one, because it checks
    /// them all together once the input is read (a server's COPY into a staging table).
    var checksAfterReading: Bool { get }
}

extension ImportRowWriter {
    var checksAfterReading: Bool { false }
}

/// Writes rows with prepared statements reused for every row; the database's triggers record
/// each written item's history.
private final class RowWriter: ImportRowWriter {
    let database: Database
    let insert: Statement
    /// ``ItemImport/lookupSQL``: tells a deleted item's id from another refusal.
    let lookup: Statement
    let onConflict: ItemImport.ConflictPolicy
    /// For `replace` only: reads and overwrites a stored item whose id a row names.
    let replacement: ItemImport.Replacement<Database>?

    init(database: Database, onConflict: ItemImport.ConflictPolicy) throws {
        self.database = database
        self.onConflict = onConflict
        // With replace too the INSERT leaves a stored item alone: the stored item is read first,
        // so that only a row that changes something is written (only for the ids that conflict).
        insert = try database.prepare(onConflict == .fail ? ItemsTable.insertSQL : ItemsTable.insertSkippingExistingSQL)
        lookup = try database.prepare(ItemImport.lookupSQL)
        replacement = onConflict == .replace ? try ItemImport.Replacement(connection: database) : nil
    }

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

/// Lines of a JSON Lines input, LF or CRLF, with their numbers.
private final class LineReader {
    struct Line {
        let reader: LineReader
        let number: Int
        var isBlank: Bool { reader.bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
            try reader.bytes.withUnsafeBufferPointer { bytes in try body(bytes) }
        }
    }

    private let input: ByteInput
    fileprivate var bytes: [UInt8] = []
    private var number = 0

    init(input: ByteInput) {
        self.input = input
        bytes.reserveCapacity(1024)
    }

    func next() throws -> Line? {
        bytes.removeAll(keepingCapacity: true)
        var sawAny = false
        while true {
            if input.position == input.count {
                guard try input.refill() else { break }
            }
            // Copy up to the next LF in one go.
            let start = input.position
            let chunk = UnsafeBufferPointer(rebasing: input.buffer[start..<input.count])
            if let offset = chunk.firstIndex(of: 0x0A) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<offset]))
                input.position = start + offset + 1
                sawAny = true
                number += 1
                if bytes.last == 0x0D { bytes.removeLast() }
                return Line(reader: self, number: number)
            }
            bytes.append(contentsOf: chunk)
            input.position = input.count
            sawAny = true
        }
        guard sawAny, !bytes.isEmpty else { return nil }
        number += 1
        if bytes.last == 0x0D { bytes.removeLast() }
        return Line(reader: self, number: number)
    }
}

extension ItemImport {
    /// Binds an imported row to an `items` INSERT (``ItemsTable/insertSQL``, on either
    /// engine): the item, then its times as the file gives them (an update time defaults to the
    /// creation time, both to `now`). Returns the item and the two times, which its history records.
    @inline(__always)
    static func bind<Statement: ParameterSink>(_ row: ImportedRow, id: UUID, decoder: ImportRowDecoder, now: [UInt8],
                                               to insert: Statement) throws -> (item: Item, created: [UInt8], updated: [UInt8]) {
        let layout = ItemsTable.insertLayout
        var binder = RowBinder(insert, at: layout.item)
        let item = Item(id: id, name: row.name, color: row.color, status: row.status)
        try ItemCodec.bind(item, to: &binder)
        let created = row.hasCreatedAt ? decoder.createdAt : now
        let updated = row.hasUpdatedAt ? decoder.updatedAt : (row.hasCreatedAt ? decoder.createdAt : now)
        try created.withUnsafeBufferPointer { try insert.bindText($0, at: layout.createdAt) }
        try updated.withUnsafeBufferPointer { try insert.bindText($0, at: layout.updatedAt) }
        return (item, created, updated)
    }
}
