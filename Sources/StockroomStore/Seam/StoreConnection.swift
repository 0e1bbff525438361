import FoundationEssentials
import Glibc
import StockroomMigrations

// The seam between the repositories and an engine. Repositories and codecs are written once,
// generic over these protocols; SQLite's `Database`/`Statement` satisfy them as they are, and
// PostgreSQL satisfies them through a small adapter; each engine's side lives in its folder
// (Engines/SQLite/, Engines/PostgreSQL/). The public types reach a connection through
// ``EngineConnection`` (Seam/EngineConnection.swift), whose witnesses are copies specialised for
// each engine's connection type, so SQLite's path compiles to the same direct calls as before
// the seam (BENCHMARKS.md, issue 13).
//
// Repositories write SQL in SQLite's spelling with numbered (`?1`) or plain (`?`) parameters;
// the PostgreSQL adapter renumbers them (`$1`) once per statement text. What differs beyond
// that is asked of the connection's engine (``DatabaseEngine``'s SQL spellings below).

/// Where a codec binds a row's values: a statement's parameters, by zero-based position.
protocol ParameterSink: AnyObject {
    func bind(_ value: String, at index: Int) throws
    func bind(_ value: Int, at index: Int) throws
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws
    func bindStatic(_ value: StaticString, at index: Int) throws
    func bindNull(at index: Int) throws
}

/// Where a codec reads a row's columns, by zero-based position.
protocol ColumnSource: AnyObject {
    var columnCount: Int { get }
    func columnName(at index: Int) -> String
    func isNull(at index: Int) -> Bool
    func int(at index: Int) -> Int
    func optionalInt(at index: Int) -> Int?
    func text(at index: Int) -> String
    func optionalText(at index: Int) -> String?
    func withText<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T
    /// The column as it reads in a message: `NULL`, `'text'` or a number.
    func describeColumn(at index: Int) -> String
    /// The column as text for a CSV field: NULL as empty, numbers in decimal.
    func fieldText(at index: Int) -> String
}

/// A prepared statement: bind, then `step` through its rows or `run` it; `reset` to run again
/// (bindings are kept, as SQLite keeps them).
protocol StoreStatement: ParameterSink, ColumnSource {
    func step() throws -> Bool
    func run() throws
    func reset()
    /// After the first `step`, how many rows the query returns when the engine already knows
    /// (PostgreSQL holds the whole result), so a caller can reserve room once; nil on SQLite,
    /// which makes each row as it is stepped to.
    var knownRowCount: Int? { get }
}

/// Where a bulk load writes rows: a row's values bound in column order, from position 0, then
/// ``endRow()``.
protocol BulkRowSink: ParameterSink {
    /// Ends the row whose values were just bound: it is written, or queued to be.
    func endRow() throws
}

/// What differs between the engines' SQL beyond parameter spelling.
extension DatabaseEngine {
    /// A function call giving U+10FFFF, the greatest code point, to close a prefix range.
    var greatestCharacter: String {
        switch self {
        case .sqlite: "char(1114111)"
        case .postgres: "chr(1114111)"
        }
    }

    /// What follows a SELECT of the row a transaction is about to change, so that concurrent
    /// changes to the same row queue instead of racing: PostgreSQL's row lock; nothing on
    /// SQLite, whose write transaction already holds the whole database.
    var lockingRead: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }

    /// What waits for the turn to append history, or nil on SQLite, whose write transaction is
    /// the turn. On PostgreSQL every statement writing `items` takes the turn (an advisory
    /// transaction lock, migration 0004's `item_events_take_turn`) before it touches a row; a
    /// transaction that locks an item's row before its write takes the turn first, so that
    /// every writer takes the two in one order (turn, then rows) and no two wait on each other.
    var historyTurn: String? {
        switch self {
        case .sqlite: nil
        case .postgres: "SELECT item_events_take_turn()"
        }
    }

    /// The operator matching a LIKE pattern ignoring ASCII letter case (SQLite's LIKE does; on
    /// PostgreSQL ILIKE over `COLLATE "C"` columns folds ASCII letters only, the same rule).
    var caseInsensitiveLike: String {
        switch self {
        case .sqlite: "LIKE"
        case .postgres: "ILIKE"
        }
    }
}

/// A connection the repositories run on.
protocol StoreConnection: AnyObject {
    associatedtype Statement: StoreStatement
    associatedtype BulkLoader: BulkRowSink
    associatedtype ImportLoader: ImportRowLoader
    /// The engine, whose SQL differences the repositories ask of it.
    var dialect: DatabaseEngine { get }
    /// The statement for `sql`, prepared once per connection and reset after `body`.
    func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T
    /// The statement for `sql`, prepared once per connection; the caller resets it.
    func cachedStatement(_ sql: String) throws -> Statement
    /// Runs `body` in a new write transaction, or in a savepoint when one is already open.
    func inTransaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` in one new write transaction that is never run again (its input may be
    /// read once): committed when it returns, rolled back when it throws.
    func inTransactionWithoutRetry<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` with the user triggers of `tables` set aside, inside the caller's
    /// transaction (DDL is transactional on both engines: a rollback restores them).
    func withTriggersSuspended<T>(on tables: [String], _ body: () throws -> T) throws -> T
    /// Deletes every row of `tables`, with no trigger to refuse it (see ``withTriggersSuspended(on:_:)``).
    func removeAllRows(of tables: [String]) throws
    /// Runs SQL without parameters or results (DDL, index builds).
    func execute(_ sql: String) throws
    /// Writes rows into `columns` of `table` as one bulk load, inside the caller's transaction:
    /// `body` binds each row to the loader and ends it. What a row breaks (a key, a CHECK) may
    /// be reported by the row's `endRow` or only when the load ends, as the engine finds it.
    func bulkLoad(into table: String, columns: ColumnLayout, _ body: (BulkLoader) throws -> Void) throws
    /// Runs `body` in one new write transaction that is never run again (an import's input
    /// may be read once), committed when it returns and rolled back when it throws, with the
    /// engine's loader of `importer`'s rows into `items` under its conflict policy
    /// (Seam/ImportLoading.swift).
    func importing<T>(_ importer: ItemImport, _ body: (ImportLoader) throws -> T) throws -> T
    /// Reads every row of `columns` of `table` once, in whatever order the engine reads a whole
    /// table fastest (no key order: a caller that needs one sorts or pages itself): each value
    /// as its text, integers in decimal and nil for NULL, to `field` in column order, then
    /// `endRow`. The text is valid only inside the call. Inside the caller's transaction.
    func scanRows(of table: String, columns: ColumnLayout,
                  field: (UnsafeBufferPointer<UInt8>?) throws -> Void, endRow: () throws -> Void) throws
    /// Brings what the engine knows of `tables`' rows up to date after a bulk load into them,
    /// inside the caller's transaction, so the reads that follow are planned for the rows now
    /// there.
    func refreshStatistics(of tables: [String]) throws
    /// Runs `body` in one read-only transaction: every statement in it sees the same snapshot
    /// (a search's count of candidates, which picks its plan, and the rows the plan reads). In
    /// a transaction already open, `body` runs in it.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `body`, or returns nil once its statements have done about `instructions` units of
    /// the engine's work (SQLite: virtual-machine instructions); engines without such a count
    /// run `body` to the end. What a search walk uses to stop without a second pass.
    func withInstructionBudget<T>(_ instructions: Int, _ body: () throws -> T) throws -> T?
    /// True when every statement from now until the current transaction ends sees one
    /// snapshot: no transaction is open (``inReadTransaction(_:)`` opens one), or the open one
    /// is. False inside a PostgreSQL READ COMMITTED transaction, whose statements each see the
    /// latest commits.
    var readsFromOneSnapshot: Bool { get }
    /// Rows per page when a long read is taken in keyset pages (PostgreSQL, whose client holds
    /// a whole result); nil when one statement streams every row as it is stepped (SQLite).
    var readPageSize: Int? { get }
    /// True when the current schema has a table named `name` (a catalog query).
    func tableExists(_ name: String) throws -> Bool
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { get }
    /// Binds `limit` for `LIMIT ?`, or what the engine reads as "no limit" for nil.
    func bindLimit(_ limit: Int?, to statement: Statement, at index: Int) throws
}

extension StoreConnection {
    /// Waits for the turn to append history (``DatabaseEngine/historyTurn``), inside the
    /// caller's transaction; nothing on SQLite, whose write transaction is the turn.
    func takeHistoryTurn() throws {
        guard let turn = dialect.historyTurn else { return }
        try withStatement(turn) { statement in _ = try statement.step() }
    }

    /// The rows of `table`, 0 when it does not exist (an older schema).
    func rowCount(of table: String) throws -> Int {
        guard try tableExists(table) else { return 0 }
        return try withStatement("SELECT count(*) FROM \(table)") { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }
}

extension ParameterSink {
    /// Binds an id as its lowercase canonical text, the only form the schema accepts.
    @inline(__always)
    func bind(_ id: UUID, at index: Int) throws {
        try id.withLowercasedUTF8 { try bindText($0, at: index) }
    }

    /// Binds `bytes` as text, as they are (a search range's bound, which may not be valid UTF-8).
    @inline(__always)
    func bindText(_ bytes: [UInt8], at index: Int) throws {
        try bytes.withUnsafeBufferPointer { try bindText($0, at: index) }
    }
}

extension ColumnSource {
    /// The id in column `index`, nil when it is not a canonical UUID.
    @inline(__always)
    func uuid(at index: Int) -> UUID? {
        withText(at: index) { UUID(canonicalUTF8: $0) }
    }
}
