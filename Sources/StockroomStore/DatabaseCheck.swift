import Foundation
import Inventory
import SQLiteCore
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

    /// Checks `database` in one read transaction, so every part sees the same snapshot.
    ///
    /// - Throws: ``SQLiteError`` only when the check cannot run (busy, I/O error); damage it
    ///   finds is reported as problems.
    public static func run(on database: Database, migrations: MigrationSet = .embedded) throws -> Report {
        var problems: [Problem] = []
        var summary: DatabaseSummary?
        do {
            try database.readTransaction {
                problems += try database.integrityProblems().map(integrityProblem)
                problems += try database.foreignKeyViolations().map { Problem(kind: .foreignKey, message: $0.description) }
                summary = try DatabaseSummary.read(from: database)
                problems += try migrationProblems(in: database, summary: summary, migrations: migrations)
                problems += try rowProblems(in: database, isAtLatestVersion: (summary?.schemaVersion ?? 0) >= migrations.latestVersion)
            }
        } catch let error as SQLiteError where error.isCorruption {
            problems.append(unreadable(error))
        }
        return Report(problems: problems, summary: summary, latestKnownVersion: migrations.latestVersion)
    }

    /// `integrity_check` also tests the schema's constraints row by row; those failures say
    /// the content breaks a rule, not that the file is damaged.
    /// Opens the file at `path` read-only and checks it. A file SQLite cannot open as a
    /// database is reported as an integrity problem, like damage found inside one.
    ///
    /// - Throws: ``BackupError/databaseMissing(_:)`` when there is no file (none is created);
    ///   ``SQLiteError`` when the check cannot run.
    public static func run(onFileAt path: String, busyTimeoutMilliseconds: Int32 = 5_000,
                           migrations: MigrationSet = .embedded) throws -> Report {
        guard FileManager.default.fileExists(atPath: path) else { throw BackupError.databaseMissing(path) }
        let database: Database
        do {
            database = try Database(path: path, mode: .queryOnly, configuration: .init(busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        } catch let error as SQLiteError where error.isCorruption {
            return Report(problems: [unreadable(error)], summary: nil, latestKnownVersion: migrations.latestVersion)
        }
        return try run(on: database, migrations: migrations)
    }

    private static func unreadable(_ error: SQLiteError) -> Problem {
        Problem(kind: .integrity, message: "SQLite cannot read the file: \(error.message) (\(error.codeName))")
    }

    private static func integrityProblem(_ message: String) -> Problem {
        Problem(kind: isConstraintFailure(message) ? .constraint : .integrity, message: message)
    }

    /// True for the `integrity_check` messages about a row breaking a CHECK, NOT NULL or
    /// STRICT column type rule, as opposed to a damaged page or index.
    static func isConstraintFailure(_ message: String) -> Bool {
        message.hasPrefix("CHECK constraint failed")
            || message.hasPrefix("NULL value in ")
            || (message.hasPrefix("non-") && message.contains(" value in "))
    }

    private static func migrationProblems(in database: Database, summary: DatabaseSummary?,
                                          migrations: MigrationSet) throws -> [Problem] {
        guard summary != nil else {
            return [Problem(kind: .migrations, message: "no \(MigrationRunner.tableName) table: this is not a Stockroom database")]
        }
        let runner = MigrationRunner(database: database, migrations: migrations)
        return runner.validationErrors(try runner.appliedMigrations()).map { Problem(kind: .migrations, message: $0.description) }
    }

    /// Decodes every row through the repositories' own decoding and checks it against the
    /// domain's rules (``ItemName``: no control characters, an item's name not blank), collecting
    /// each failure. The schema's CHECKs cannot say all of this (Unicode's invisible characters),
    /// so a row written by hand in `sqlite3` can pass them and still be reported here.
    ///
    /// An older schema may lack tables that later migrations add; at the newest version this
    /// binary knows, both tables must exist.
    private static func rowProblems(in database: Database, isAtLatestVersion: Bool) throws -> [Problem] {
        let tables: [(name: String, columns: String, decode: (Statement) throws -> Void)] = [
            ("items", ItemRepository.columns, { try ItemRepository.decode($0).validate() }),
            // A draft's name may be blank while it is edited, but never hold a control character.
            ("drafts", DraftRepository.columns, { try ItemName.validate(try DraftRepository.decode($0).draft.item.name) }),
        ]
        var problems: [Problem] = []
        for table in tables {
            guard try database.tableExists(table.name) else {
                if isAtLatestVersion { problems.append(Problem(kind: .rows, message: "table \(table.name) is missing")) }
                continue
            }
            problems += try undecodableRows(of: table.name, columns: table.columns, in: database, decode: table.decode)
        }
        return problems
    }

    private static func undecodableRows(of table: String, columns: String, in database: Database,
                                        decode: (Statement) throws -> Void) throws -> [Problem] {
        let statement: Statement
        do {
            statement = try database.prepare("SELECT \(columns) FROM \(table) ORDER BY rowid")
        } catch let error as SQLiteError where !error.isCorruption && !error.isBusy {
            // A column this binary reads is missing: the table has another shape.
            return [Problem(kind: .rows, message: "table \(table) cannot be read by this stockroom: \(error.message)")]
        }
        var problems: [Problem] = []
        while try statement.step() {
            do {
                try decode(statement)
            } catch let error as StoreError {
                problems.append(Problem(kind: .rows, message: error.description))
            } catch {
                let id = statement.text(at: 0)
                problems.append(Problem(kind: .rows, message: "row \(id) of table \(table) breaks a rule: \(error)"))
            }
        }
        return problems
    }
}
