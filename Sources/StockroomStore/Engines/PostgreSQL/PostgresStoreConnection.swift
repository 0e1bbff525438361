import FoundationEssentials
import Glibc
import PostgresCore
import StockroomMigrations

/// A PostgreSQL connection as the repositories see it: statements prepared once per
/// connection (server-side), parameters renumbered from SQLite's spelling, rows read in text
/// format, transactions that lock the rows they change and are retried when the server
/// reports a deadlock or serialization failure.
final class PostgresStoreConnection: StoreConnection {
    let connection: Connection
    private var statements: [String: PostgresStoreStatement] = [:]
    private var savepointDepth = 0
    /// Rows changed by the last statement run.
    var changes = 0

    init(_ connection: Connection) {
        self.connection = connection
    }

    var dialect: DatabaseEngine { .postgres }

    func cachedStatement(_ sql: String) throws -> PostgresStoreStatement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let translated = PostgresStoreConnection.numberedParameters(sql)
        let statement = PostgresStoreStatement(owner: self, prepared: try connection.preparedStatement(translated))
        statements[sql] = statement
        return statement
    }

    func withStatement<T>(_ sql: String, _ body: (PostgresStoreStatement) throws -> T) throws -> T {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// A new transaction, or a savepoint inside an open one.
    ///
    /// READ COMMITTED, with the row a body changes locked first (``DatabaseEngine/lockingRead``):
    /// two commands changing one item queue on its row as they queue on SQLite's write lock,
    /// and the second reads the first's version when it gets the lock, so "next version =
    /// max + 1" holds. (SERIALIZABLE with retries was tried first: six writers on one item
    /// ran out of ten attempts.) A deadlock (40P01) or serialization failure (40001) runs the
    /// body again from the start; repository bodies only touch the database.
    ///
    /// So does a connection that broke before COMMIT was sent (a server restart, a failover):
    /// nothing was committed, so the body runs again on a new session, reached through the
    /// same connection string (with several hosts, the one that now accepts writes). A break
    /// *during* COMMIT is never retried: the write may have been saved, and the error says so
    /// (``PostgresError/isCommitOutcomeUnknown``).
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        if connection.transactionState == .idle {
            return try connection.retryingTransaction(isolation: .readCommitted, reconnecting: true, body)
        }
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "stockroom_\(savepointDepth)"
        try connection.execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try connection.execute("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            if connection.transactionState != .idle {
                try? connection.execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    func tableExists(_ name: String) throws -> Bool {
        try connection.query("SELECT to_regclass($1) IS NOT NULL", name).scalar(Bool.self)
    }

    /// READ COMMITTED, not retried: the body may read its input once.
    func inTransactionWithoutRetry<T>(_ body: () throws -> T) throws -> T {
        try connection.transaction(isolation: .readCommitted, body)
    }

    /// `DISABLE TRIGGER USER` then `ENABLE`, which also keeps every other session out of the
    /// tables until the commit. The search ranges' triggers are set aside with the others, so
    /// the ranges are rebuilt from the rows then (they are derived, never copied).
    func withTriggersSuspended<T>(on tables: [String], _ body: () throws -> T) throws -> T {
        for table in tables { try connection.execute("ALTER TABLE \(table) DISABLE TRIGGER USER") }
        let result = try body()
        for table in tables { try connection.execute("ALTER TABLE \(table) ENABLE TRIGGER USER") }
        if tables.contains(ItemsTable.name), try tableExists(ItemsSearchRangesTable.name) {
            try connection.execute(ItemsSearchRangesTable.rebuildSQL(.postgres))
        }
        return result
    }

    func removeAllRows(of tables: [String]) throws {
        try connection.execute("TRUNCATE \(tables.joined(separator: ", "))")
    }

    func execute(_ sql: String) throws {
        try connection.execute(sql)
    }

    /// No instruction count on PostgreSQL (its search walk counts rows instead): `body` runs.
    func withInstructionBudget<T>(_ instructions: Int, _ body: () throws -> T) throws -> T? {
        try body()
    }

    /// One REPEATABLE READ, READ ONLY transaction: one snapshot for every statement in `body`
    /// (or the transaction already open).
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        guard connection.transactionState == .idle else { return try body() }
        inSnapshot = true
        defer { inSnapshot = false }
        return try connection.transaction(isolation: .repeatableRead, readOnly: true, body)
    }

    /// True inside ``inReadTransaction(_:)``'s REPEATABLE READ transaction.
    private var inSnapshot = false

    var readsFromOneSnapshot: Bool { connection.transactionState == .idle || inSnapshot }

    /// A query's whole result arrives in the client, so long reads go a page at a time, each
    /// resuming after the last key of the one before (keyset pagination).
    var readPageSize: Int? { 10_000 }

    func bindLimit(_ limit: Int?, to statement: PostgresStoreStatement, at index: Int) throws {
        // LIMIT NULL is PostgreSQL's "no limit" (a negative one is an error).
        if let limit { try statement.bind(limit, at: index) } else { try statement.bindNull(at: index) }
    }

    /// `sql` with SQLite's parameters (`?NNN`, and `?` meaning one more than the greatest so
    /// far) spelled as PostgreSQL's `$NNN`; string literals and quoted names are left as they are.
    static func numberedParameters(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 8)
        var highest = 0
        var quote: Character?
        var characters = sql.makeIterator()
        var pending: Character? = characters.next()
        while let character = pending {
            pending = characters.next()
            if let open = quote {
                output.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                output.append(character)
                continue
            }
            guard character == "?" else {
                output.append(character)
                continue
            }
            var digits = ""
            while let next = pending, next.isASCII, next.isNumber {
                digits.append(next)
                pending = characters.next()
            }
            let number = Int(digits) ?? highest + 1
            highest = max(highest, number)
            output += "$\(number)"
        }
        return output
    }
}

/// A prepared statement on the server with its parameters gathered in text format; the first
/// `step` or `run` sends them, then the rows of the result are read in place.
final class PostgresStoreStatement: StoreStatement {
    unowned let owner: PostgresStoreConnection
    let prepared: PreparedStatement
    private var parameters: [String?] = []
    /// The rows of the last run; it keeps `cells` valid.
    private var result: QueryResult?
    /// `result`'s cells, read in place: a column read is libpq's own calls, with no `Row`
    /// value or reference counting (W2 on PostgreSQL, BENCHMARKS.md).
    private var cells: ResultCells?
    private var row = -1

    init(owner: PostgresStoreConnection, prepared: PreparedStatement) {
        self.owner = owner
        self.prepared = prepared
    }

    // MARK: Parameters

    private func set(_ value: String?, at index: Int) {
        if index >= parameters.count { parameters.append(contentsOf: repeatElement(nil, count: index + 1 - parameters.count)) }
        parameters[index] = value
    }

    func bind(_ value: String, at index: Int) throws { set(value, at: index) }
    func bind(_ value: Int, at index: Int) throws { set(String(value), at: index) }
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws { set(String(decoding: bytes, as: UTF8.self), at: index) }
    func bindStatic(_ value: StaticString, at index: Int) throws { set(value.description, at: index) }
    func bindNull(at index: Int) throws { set(nil, at: index) }

    // MARK: Running

    private func execute() throws -> QueryResult {
        let result = try prepared.query(parameters: parameters.map { $0 as any PostgresParameter })
        self.result = result
        cells = result.cells
        row = -1
        owner.changes = result.affectedRowCount
        return result
    }

    func step() throws -> Bool {
        if result == nil { _ = try execute() }
        row += 1
        return row < (cells?.rowCount ?? 0)
    }

    func run() throws { _ = try execute() }

    var knownRowCount: Int? { cells?.rowCount }

    func reset() {
        result = nil
        cells = nil
        row = -1
    }

    // MARK: Columns

    /// Column `index` of the current row in place, nil for NULL or when there is no current row.
    @inline(__always)
    private func bytes(at index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let cells, row >= 0, row < cells.rowCount else { return nil }
        return cells.bytes(row: row, column: index)
    }

    var columnCount: Int { result?.columnCount ?? 0 }
    func columnName(at index: Int) -> String { result?.columnName(at: index) ?? "" }

    func isNull(at index: Int) -> Bool {
        guard let cells, row >= 0, row < cells.rowCount else { return true }
        return cells.isNull(row: row, column: index)
    }

    func optionalText(at index: Int) -> String? { bytes(at: index).map { String(decoding: $0, as: UTF8.self) } }
    func text(at index: Int) -> String { optionalText(at: index) ?? "" }
    func optionalInt(at index: Int) -> Int? { bytes(at: index).flatMap(ResultCells.decimalInteger) }
    func int(at index: Int) -> Int { optionalInt(at: index) ?? 0 }

    func withText<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        // In place, as SQLite's column text is read: NULL reads as no bytes, as there.
        try body(bytes(at: index) ?? UnsafeBufferPointer(start: nil, count: 0))
    }

    func describeColumn(at index: Int) -> String {
        guard let text = optionalText(at: index) else { return "NULL" }
        return Int(text) != nil ? text : "'" + text.replacing("'", with: "''") + "'"
    }

    func fieldText(at index: Int) -> String { text(at: index) }
}
