import FoundationEssentials
import Glibc
import Inventory

/// Loads items from CSV or JSON Lines into the `items` table: all of them or none.
///
/// The whole file is read in one write transaction. Every row is decoded and checked against
/// the domain's rules; the first bad row stops the writing, reading goes on to report every bad
/// row, and the transaction is rolled back. A process killed at any point leaves the database
/// as it was, since nothing is committed before the last row.
///
/// These rules are written once, over the seam; how the rows reach `items` is the engine's
/// (`StoreConnection/importing(_:_:)`): into a file each row as it is read, with the secondary
/// indexes of an empty `items` dropped first and rebuilt after the load (a sorted index build is
/// several times faster than a million random inserts into three B-trees); into a server
/// through a staging COPY and set-based statements once the input is read.
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

    /// An import of `format`, failing on an id that exists unless `onConflict` says otherwise;
    /// with `dryRun`, every row is checked and nothing is written.
    public init(format: TransferFormat, onConflict: ConflictPolicy = .fail, dryRun: Bool = false) {
        self.format = format
        self.onConflict = onConflict
        self.dryRun = dryRun
    }

    /// Imports the rows read from `descriptor` into `store`, a file or a server, with the same
    /// result, summary, problems and history on either engine: one implementation, dispatched
    /// once to the engine's specialised copy.
    ///
    /// With ``dryRun`` the store is only read. Nothing is written unless every row is good.
    ///
    /// - Throws: ``ImportRejection`` when any row is bad or (with ``ConflictPolicy/fail``)
    ///   names an existing id; ``TransferError`` when the input cannot be read; the engine's
    ///   errors (busy, I/O, a lost connection) as they come.
    public func run(reading descriptor: Int32, into store: InventoryStore, progress: (Progress) -> Void = { _ in }) throws -> Summary {
        try store.connection.importItems(self, reading: descriptor, progress: progress)
    }

    /// Every rule of an import, once for both engines; the engine's loader
    /// (``StoreConnection/importing(_:_:)``) only moves the rows into `items`.
    func run<Connection: StoreConnection>(reading descriptor: Int32, into connection: Connection,
                                          progress: (Progress) -> Void) throws -> Summary {
        guard format == .csv || format == .jsonl else {
            throw ImportRejection(problems: [.init(line: 1, reason: "import reads csv or jsonl, not \(format.rawValue)")], total: 1)
        }
        if dryRun {
            // One snapshot: every id is looked up as the store stood when the reading began.
            return try connection.inReadTransaction {
                try load(descriptor, lookup: try connection.cachedStatement(ItemImport.lookupSQL),
                         writer: nil as Connection.ImportLoader.Rows?, progress: progress)
            }
        }
        return try connection.importing(self) { loader in
            let (summary, found) = try loader.receiving { rows in
                // A loader that writes each row as it comes stops at the first bad one; the
                // lookup then goes on naming the stored and deleted ids it would have refused.
                let lookup = rows.checksAfterReading ? nil : try connection.cachedStatement(ItemImport.lookupSQL)
                return try read(descriptor, lookup: lookup, writer: rows, progress: progress)
            }
            var problems = found
            // Every writer of `items` waits for this turn (migration 0004) before touching a
            // row, so from here until COMMIT no other writer changes what the checks read; on
            // SQLite the write transaction is the turn.
            if let turn = connection.dialect.historyTurn { try connection.execute(turn) }
            let unwritable = try loader.unwritableRows()
            problems.merge(unwritable.problems, total: unwritable.total)
            guard problems.isEmpty else { throw problems.rejection }
            let written = try loader.finish()
            return Summary(rows: summary.rows, imported: written.imported,
                           skipped: onConflict == .fail ? 0 : summary.rows - written.imported - written.replaced,
                           replaced: written.replaced, dryRun: false, rebuiltIndexes: written.rebuiltIndexes)
        }
    }

    /// Reads every row; writes them with `writer` while no row has been bad. `lookup`
    /// (``lookupSQL``) names stored and deleted ids when nothing is written, as the writer
    /// would. Generic so that each engine's path is specialised: SQLite's makes direct calls.
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
                            if ItemChanges(from: item, to: row.item(id: id)) == nil {
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
        let item = row.item(id: id)
        try ItemCodec.bind(item, to: &binder)
        let created = row.hasCreatedAt ? decoder.createdAt : now
        let updated = row.hasUpdatedAt ? decoder.updatedAt : (row.hasCreatedAt ? decoder.createdAt : now)
        try created.withUnsafeBufferPointer { try insert.bindText($0, at: layout.createdAt) }
        try updated.withUnsafeBufferPointer { try insert.bindText($0, at: layout.updatedAt) }
        return (item, created, updated)
    }
}
