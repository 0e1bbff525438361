import ArgumentParser
import PostgresCore
import SQLiteCore
@testable import stockroom
import StockroomMigrations
import StockroomStore
import Testing

/// The exit-code table for failures that cannot be provoked from outside on demand.
@Suite struct FailureMappingTests {
    @Test func anIOErrorAtCommitSaysTheOutcomeIsUnknown() {
        let error = SQLiteError(extendedCode: 1034, message: "disk I/O error", sql: "COMMIT", isCommitOutcomeUnknown: true)
        let (code, message) = Failure.classify(error)
        #expect(code == .ioError)
        #expect(message.contains("may or may not have been saved"))
        #expect(!message.contains("failed"))
    }

    /// A failover cuts connections at any moment: one cut while COMMIT waited for its answer
    /// must not read as "nothing was changed", one cut before it must.
    @Test func aServerConnectionLostAtCommitSaysTheOutcomeIsUnknown() {
        let atCommit = PostgresError(kind: .connectionLost, message: "server closed the connection unexpectedly",
                                     sql: "COMMIT", isCommitOutcomeUnknown: true)
        let (code, message) = Failure.classify(atCommit)
        #expect(code == .busy)
        #expect(message.contains("may or may not have been saved"), "\(message)")
        #expect(!message.contains("nothing was changed"), "\(message)")
        let before = Failure.classify(PostgresError(kind: .connectionLost, message: "server closed the connection unexpectedly"))
        #expect(before.0 == .busy)
        #expect(before.1.contains("nothing was changed"), "\(before.1)")
    }

    @Test func busyAndLockedAreTemporaryFailures() {
        #expect(Failure.classify(SQLiteError(extendedCode: 5, message: "database is locked")).0 == .busy)
        #expect(Failure.classify(SQLiteError(extendedCode: 517, message: "database is locked")).0 == .busy)
        #expect(Failure.classify(SQLiteError(extendedCode: 6, message: "database table is locked")).0 == .busy)
    }

    @Test func aMissingClientLibraryIsUnavailableAndSaysWhatToInstall() {
        let error = PostgresError(kind: .libraryUnavailable, message: "libpq is not installed: libpq.so.5: cannot open shared object file; install libpq5")
        let (code, message) = Failure.classify(error)
        #expect(code == .unavailable)
        #expect(code.rawValue == 69)
        #expect(message.contains("install libpq5"))
    }

    /// The core knows no parser: it reads the status ArgumentParser gives its own errors as the
    /// code of that number (``Failure/Parser``), so a failed validation must stay `EX_USAGE`.
    @Test func argumentParsersOwnErrorsKeepTheirCodes() {
        #expect(ExitCode.validationFailure.rawValue == Failure.Code.usage.rawValue)
        let (code, message) = Failure.classify(ValidationError("--port must be between 0 and 65535"))
        #expect(code == .usage)
        #expect(message == "--port must be between 0 and 65535")
        #expect(Failure.classify(ExitCode.success) == (.success, ""))
    }

    /// Issue 28: the CLI and the server read one table. A file that cannot be written is an I/O
    /// failure for both (it was `.readOnly` -> 405 for the server and 74 for the CLI), and a
    /// connection string that cannot be read is the user's mistake for both (it was `.failed`
    /// for the server and 64 for the CLI).
    @Test func theCLIAndTheServerReadOneTable() {
        let readOnly = SQLiteError(extendedCode: 8, message: "attempt to write a readonly database")
        let failure = StoreFailure.of(readOnly, secondsWaited: { "0" })
        #expect(failure?.kind == .io)
        #expect(failure?.kind.httpStatus == 500)
        #expect(Failure.classify(readOnly).0 == .ioError)
        #expect(failure?.clientDetail == "the database file cannot be written (SQLITE_READONLY: attempt to write a readonly database)")

        let malformed = PostgresError(kind: .invalidConnectionString, message: "invalid connection string postgresql://h:x/db: invalid port number")
        #expect(StoreFailure.of(malformed, secondsWaited: { "0" })?.kind == .usage)
        #expect(Failure.classify(malformed).0 == .usage)

        // Every kind has one exit code and one status; only the "try again" kinds ask to retry.
        for kind in StoreFailure.Kind.allCases {
            #expect((kind.retryAfterSeconds != nil) == (kind.httpStatus == 503), "\(kind)")
            #expect(kind.exitCode != .success, "\(kind)")
        }
        // A migration's statement that fails for a reason of its own is the migration's data
        // failure (65), not an unexpected one; one that met a lock is busy.
        let syntax = MigrationError.statementFailed(fileName: "0009_x.sql", statement: "CREATE TABLE (", error: SQLiteError(extendedCode: 1, message: "near \"(\": syntax error"))
        #expect(Failure.classify(syntax).0 == .dataError)
        let locked = MigrationError.statementFailed(fileName: "0009_x.sql", statement: "CREATE TABLE t (x)", error: SQLiteError(extendedCode: 5, message: "database is locked"))
        #expect(Failure.classify(locked).0 == .busy)
        // A statement's text never reaches an HTTP client.
        let constraint = SQLiteError(extendedCode: 275, message: "CHECK constraint failed: quantity", sql: "UPDATE items SET quantity = ?")
        #expect(Failure.classify(constraint).1.contains("UPDATE items"))
        #expect(StoreFailure.of(constraint, secondsWaited: { "0" })?.clientDetail.contains("UPDATE") == false)
    }

    @Test func multiLineMessagesBecomeOneLine() {
        let folded = Failure.oneLine("The value 'x' is invalid for '--color <color>'. Please provide one of the following:\n- black\n- blue\n")
        #expect(folded == "the value 'x' is invalid for '--color <color>'. Please provide one of the following: black, blue")
    }

    @Test func sqliteCodeNamesKeepTheirCasing() {
        #expect(Failure.oneLine("SQLITE_FULL (13): database or disk is full") == "SQLITE_FULL (13): database or disk is full")
        #expect(Failure.oneLine("SQL is refused") == "SQL is refused")
        #expect(Failure.oneLine("The file") == "the file")
    }

    @Test func aFullDiskSaysWhatCouldNotBeWrittenAndThatNothingChanged() {
        let error = SQLiteError(extendedCode: 13, message: "database or disk is full", sql: "INSERT INTO items (name) VALUES (?)",
                                expandedSQL: "INSERT INTO items (name) VALUES ('Private name')", databasePath: "/data/stock.sqlite")
        let (code, message) = Failure.classify(error)
        #expect(code == .ioError)
        #expect(message.hasPrefix("the disk is full"))
        #expect(message.contains("/data/stock.sqlite"))
        #expect(message.contains("SQLITE_FULL"))
        #expect(message.hasSuffix("nothing was changed, free some space and try again"))
    }

    @Test func userFacingErrorsNeverPrintBoundValues() {
        let error = SQLiteError(extendedCode: 275, message: "CHECK constraint failed: name", sql: "INSERT INTO items (name) VALUES (?)",
                                expandedSQL: "INSERT INTO items (name) VALUES ('Private name')")
        let (_, message) = Failure.classify(error)
        #expect(!message.contains("Private name"))
        #expect(message.contains("VALUES (?)"))
    }
}
