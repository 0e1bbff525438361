import FoundationEssentials
import Glibc
import Inventory
import StockroomMigrations

/// A health check of a Stockroom database that reads and never writes: SQLite's
/// `integrity_check` and `foreign_key_check`, the applied migrations against the ones this binary
/// knows, and every row of `items` and `drafts` decoded into the domain.
///
/// It reports every problem it finds, not only the first, so one run tells the whole story of a
/// damaged file or a suspicious backup.
public enum DatabaseCheck {
    /// One thing wrong with the database.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Which part of the check found the problem.
        public enum Kind: String, Sendable {
            /// The file is damaged: `integrity_check` found broken pages or indexes, or SQLite
            /// could not read the file.
            case integrity
            /// `integrity_check` found a row that breaks a CHECK, NOT NULL or column type rule
            /// of the schema: the file is sound but its content was edited around the rules.
            case constraint
            /// A row refers to a missing parent row.
            case foreignKey = "foreign-key"
            /// The applied migrations cannot be trusted (unknown, edited or skipped).
            case migrations
            /// A row does not decode into a valid case of the domain, or a table is missing.
            case rows
            /// An item's history has a gap, does not follow on, or does not end in the item's row.
            case history
        }

        /// Which part of the check found it.
        public let kind: Kind
        /// One line saying what is wrong and where.
        public let message: String

        /// Creates a problem.
        public init(kind: Kind, message: String) {
            self.kind = kind
            self.message = message
        }

        /// `kind: message`, one line.
        public var description: String { "\(kind.rawValue): \(message)" }
    }

    /// The outcome of one check.
    public struct Report: Sendable {
        /// Everything found wrong, in the order checked; empty when the database is healthy.
        public let problems: [Problem]
        /// Schema version and counts, when the file is a readable Stockroom database.
        public let summary: DatabaseSummary?
        /// The newest schema version this binary knows.
        public let latestKnownVersion: Int

        /// True when nothing is wrong.
        public var isHealthy: Bool { problems.isEmpty }
        /// True when the file itself is damaged, rather than its content breaking a rule.
        public var isCorrupt: Bool { problems.contains { $0.kind == .integrity } }
    }

    /// Checks the database `connection` is connected to, in one read-only transaction so every
    /// part sees the same snapshot; written once for both engines, each engine adding its own
    /// storage checks and rules (``CheckedConnection``).
    ///
    /// - Throws: the engine's error only when the check cannot run (busy, I/O error, no server);
    ///   damage it finds is reported as problems.
    static func check<Connection: CheckedConnection>(_ connection: Connection, migrations: MigrationSet) throws -> Report {
        var problems: [Problem] = []
        var summary: DatabaseSummary?
        do {
            try connection.inReadTransaction {
                problems += try connection.storageProblems()
                var version = 0
                if try connection.tableExists(MigrationRunner.tableName) {
                    let runner = connection.migrationRunner(migrations)
                    let applied = try runner.appliedMigrations()
                    version = applied.last?.version ?? 0
                    summary = DatabaseSummary(schemaVersion: version, itemCount: try connection.rowCount(of: ItemsTable.name),
                                              draftCount: try connection.rowCount(of: DraftsTable.name))
                    problems += runner.validationErrors(applied).map { Problem(kind: .migrations, message: $0.description) }
                } else {
                    problems.append(Problem(kind: .migrations, message: "no \(MigrationRunner.tableName) table: this is not a Stockroom database"))
                }
                problems += try connection.ruleProblems()
                let rows = try rowProblems(isAtLatestVersion: version >= migrations.latestVersion,
                                           tableExists: connection.tableExists) { table, columns in
                    try connection.selectForCheck(table: table, columns: columns)
                }
                problems += rows.problems
                if rows.canReplayHistory {
                    // Events are decoded once, by the replay: undecodable ones are row problems,
                    // reported after those of items and drafts as a table of their own would be.
                    let history = try connection.withStatement(historyItemsSQL) { items in
                        try connection.withStatement(historyEventsSQL) { events in try historyProblems(items: items, events: events) }
                    }
                    problems += history.rows + history.replay
                    if version >= positionsSchemaVersion {
                        problems += try connection.withStatement(positionsSQL) { try positionProblems($0) }
                    }
                    if version >= EventDetailsCodec.addedIn {
                        problems += leftContextProblems(rows: try connection.rowCount(of: ItemEventContextTable.name))
                    }
                }
            }
        } catch {
            guard let problem = Connection.unreadableProblem(error) else { throw error }
            problems.append(problem)
        }
        return Report(problems: problems, summary: summary, latestKnownVersion: migrations.latestVersion)
    }

    /// True for the `integrity_check` messages about a row breaking a CHECK, NOT NULL or
    /// STRICT column type rule, as opposed to a damaged page or index.
    static func isConstraintFailure(_ message: String) -> Bool {
        message.hasPrefix("CHECK constraint failed")
            || message.hasPrefix("NULL value in ")
            || (message.hasPrefix("non-") && message.contains(" value in "))
    }

    /// A table's rows to decode, or why they cannot be read.
    enum TableSelection<S> {
        case statement(S)
        case problem(Problem)
    }

    /// Decodes every row through the repositories' own decoding and checks it against the
    /// domain's rules (``ItemName``: no control characters, an item's name not blank), collecting
    /// each failure. The schema's CHECKs cannot say all of this (Unicode's invisible characters),
    /// so a row written by hand in `sqlite3` can pass them and still be reported here. `select`
    /// gives the statement reading a table's columns in a stable order, or the problem that it
    /// cannot.
    ///
    /// An older schema may lack tables that later migrations add; at the newest version this
    /// binary knows, both tables must exist.
    static func rowProblems<S: StoreStatement>(
        isAtLatestVersion: Bool, tableExists: (String) throws -> Bool,
        select: (_ table: String, _ columns: String) throws -> TableSelection<S>
    ) throws -> (problems: [Problem], canReplayHistory: Bool) {
        // item_events' rows are only checked for readability here: the history replay decodes
        // each of them once (`canReplayHistory`: it can run).
        let tables: [(name: String, columns: String, decode: ((S) throws -> Void)?)] = [
            (ItemsTable.name, ItemsTable.selectColumns, { try ItemsTable.decode($0).validate() }),
            // A draft's name may be blank while it is edited, but never hold a control character.
            (DraftsTable.name, DraftsTable.selectColumns, { try ItemName.validate(try DraftsTable.decode($0).draft.item.name) }),
            (ItemEventsTable.name, ItemEventsTable.selectColumns, nil),
        ]
        var problems: [Problem] = []
        var readable: Set<String> = []
        for table in tables {
            guard try tableExists(table.name) else {
                if isAtLatestVersion { problems.append(Problem(kind: .rows, message: "table \(table.name) is missing")) }
                continue
            }
            switch try select(table.name, table.columns) {
            case .problem(let problem): problems.append(problem)
            case .statement(let statement):
                readable.insert(table.name)
                if let decode = table.decode { problems += try undecodableRows(of: table.name, statement: statement, decode: decode) }
            }
        }
        return (problems, readable.isSuperset(of: [ItemsTable.name, ItemEventsTable.name]))
    }

    /// Replays every item's events in version order and walks them alongside `items`, both in
    /// id order (a merge, so a million items need no map in memory): versions must run 1, 2, 3…
    /// without gaps, each event must follow from the state before it, an existing item's events
    /// must end in exactly its row, and a deleted item's in its deletion. Every event is decoded,
    /// after a break too: one that does not decode is a row problem (`rows`).
    /// Items and events in the order the history replay walks them (``historyProblems(items:events:)``).
    static let historyItemsSQL = "\(ItemsTable.selectAll) ORDER BY \(ItemsTable.key)"
    static let historyEventsSQL = "SELECT \(ItemEventsTable.selectColumns) FROM \(ItemEventsTable.name) ORDER BY \(ItemEventsTable.keyList)"

    /// The replay over two statements of any engine: `items` from ``historyItemsSQL``, `events`
    /// from ``historyEventsSQL``.
    static func historyProblems<S: StoreStatement>(items: S, events: S) throws -> (rows: [Problem], replay: [Problem]) {
        let itemIDColumn = ItemEventsTable.layout.itemID, versionColumn = ItemEventsTable.layout.version
        var problems: [Problem] = [], rowProblems: [Problem] = []
        func report(_ message: String) { problems.append(Problem(kind: .history, message: message)) }

        var hasItem = try items.step()
        /// Reports the items before `id` (or all that are left) as having no history.
        func itemsWithoutHistory(before id: String?) throws {
            while hasItem, id.map({ items.text(at: 0) < $0 }) ?? true {
                report("item \(items.text(at: 0)) has no history")
                hasItem = try items.step()
            }
        }
        /// Compares the replayed end of one item's history with its row.
        func finish(_ id: String, state: Item?, isDeleted: Bool, isBroken: Bool) throws {
            try itemsWithoutHistory(before: id)
            let row: Item?? = hasItem && items.text(at: 0) == id ? .some(try? ItemsTable.decode(items)) : nil
            if row != nil { hasItem = try items.step() }
            guard !isBroken else { return }
            switch (row, isDeleted) {
            case (nil, false): report("item \(id): its history does not end in a deletion, but there is no such item")
            case (.some, true): report("item \(id): its history ends in a deletion, but the item exists")
            case (.some(let item?), false) where item != state:
                report("item \(id): its latest event does not match its row (the history gives \(state.map(describe) ?? "nothing"), the row holds \(describe(item)))")
            default: break
            }
        }

        var current: String?
        var state: Item?, isDeleted = false, isBroken = false, expectedVersion = 1
        while try events.step() {
            let id = events.text(at: itemIDColumn)
            if id != current {
                if let current { try finish(current, state: state, isDeleted: isDeleted, isBroken: isBroken) }
                current = id
                state = nil; isDeleted = false; isBroken = false; expectedVersion = 1
            }
            let version = events.int(at: versionColumn)
            let decoded: RecordedItemEvent?
            do {
                decoded = try ItemEventsTable.decode(events)
            } catch {
                rowProblems.append(rowProblem(error, statement: events, table: ItemEventsTable.name))
                decoded = nil
            }
            if isBroken { continue }
            guard version == expectedVersion else {
                report("item \(id): version \(version) follows version \(expectedVersion - 1); versions go 1, 2, 3… without gaps")
                isBroken = true
                continue
            }
            expectedVersion += 1
            guard let recorded = decoded else {
                isBroken = true
                continue
            }
            switch (recorded.event, state, isDeleted) {
            case (.added(let item), nil, false) where version == 1:
                state = item
            case (.changed(let changes), let item?, false) where changes.fits(item):
                state = changes.applied(to: item)
            case (.deleted, .some, false):
                state = nil
                isDeleted = true
            default:
                report("item \(id): version \(version) does not follow from version \(version - 1)")
                isBroken = true
            }
        }
        if let current { try finish(current, state: state, isDeleted: isDeleted, isBroken: isBroken) }
        try itemsWithoutHistory(before: nil)
        return (rowProblems, problems)
    }

    /// The migration that numbers every event (`item_events.position`, 0004).
    static let positionsSchemaVersion = 4
    /// Events, events with a position, distinct positions and the highest position.
    static let positionsSQL = "SELECT count(*), count(\(ItemEventsTable.positionColumn)), count(DISTINCT \(ItemEventsTable.positionColumn)), coalesce(max(\(ItemEventsTable.positionColumn)), 0) FROM \(ItemEventsTable.name)"

    /// Every event has a position, and the positions are 1, 2, 3, … without gaps (what a reader
    /// resuming after a position relies on). The triggers keep it so; a file whose triggers were
    /// dropped may not.
    static func positionProblems<S: StoreStatement>(_ statement: S) throws -> [Problem] {
        guard try statement.step() else { return [] }
        let events = statement.int(at: 0), positioned = statement.int(at: 1)
        let distinct = statement.int(at: 2), highest = statement.int(at: 3)
        var problems: [Problem] = []
        if positioned < events {
            problems.append(Problem(kind: .history, message: "\(events - positioned) of \(events) events have no position"))
        }
        if distinct != positioned || highest != positioned {
            problems.append(Problem(kind: .history, message: "event positions are not 1 to \(positioned) without gaps (\(distinct) distinct, the highest \(highest))"))
        }
        return problems
    }

    /// A row of `item_event_context` lives only inside the transaction of the write it
    /// describes (0011); one committed would be copied into the next event of its item, whoever
    /// makes it (a `sqlite3` session's change recorded as an adjustment or a replica's intent).
    static func leftContextProblems(rows: Int) -> [Problem] {
        guard rows > 0 else { return [] }
        return [Problem(kind: .history, message: "\(ItemEventContextTable.name) holds \(rows) row(s) a writer committed instead of deleting them in its transaction: the next change to each of those items would be recorded with them (delete them)")]
    }

    private static func describe(_ item: Item) -> String {
        "'\(item.name)', \(item.color.map(\.rawValue) ?? "no colour"), \(Presentation.text(for: item.status))"
    }

    private static func undecodableRows<S: StoreStatement>(of table: String, statement: S,
                                                           decode: (S) throws -> Void) throws -> [Problem] {
        var problems: [Problem] = []
        while try statement.step() {
            do {
                try decode(statement)
            } catch {
                problems.append(rowProblem(error, statement: statement, table: table))
            }
        }
        return problems
    }

    /// A row that does not decode (the store names it) or breaks a domain rule.
    private static func rowProblem<S: StoreStatement>(_ error: any Error, statement: S, table: String) -> Problem {
        if let error = error as? StoreError { return Problem(kind: .rows, message: error.description) }
        return Problem(kind: .rows, message: "row \(statement.text(at: 0)) of table \(table) breaks a rule: \(error)")
    }
}

/// What the check asks of an engine beyond the repositories' seam: its own storage checks, the
/// rules it keeps, and how it reads a table whose shape may not be the one this binary expects.
/// Each engine's conformance lives in its folder (Engines/SQLite/, Engines/PostgreSQL/).
protocol CheckedConnection: StoreConnection {
    /// Damage the engine finds in its own storage, before anything is decoded (SQLite's
    /// `integrity_check` and `foreign_key_check`; nothing on PostgreSQL, whose server checks
    /// pages as it reads them and foreign keys on every write).
    func storageProblems() throws -> [DatabaseCheck.Problem]
    /// The engine's own rules left unkept (PostgreSQL: constraints added `NOT VALID`, disabled
    /// triggers; nothing on SQLite, whose `integrity_check` already tests its CHECKs).
    func ruleProblems() throws -> [DatabaseCheck.Problem]
    /// The statement reading `columns` of `table` in a stable order, or the problem that this
    /// binary cannot read the table.
    func selectForCheck(table: String, columns: String) throws -> DatabaseCheck.TableSelection<Statement>
    /// The runner that reads this database's applied migrations.
    func migrationRunner(_ migrations: MigrationSet) -> any MigrationRunning
    /// `error` as the problem of a database the engine cannot read at all, nil for any other error.
    static func unreadableProblem(_ error: any Error) -> DatabaseCheck.Problem?
}
