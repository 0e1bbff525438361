import FoundationEssentials
import Glibc
import MigrationChecksum

/// One versioned SQL file from `Migrations/`, such as `0001_create_items.sql`.
public struct Migration: Sendable, Equatable {
    /// The number before the first underscore of the file name.
    public let version: Int
    /// The file name without version and extension: `create_items`.
    public let name: String
    /// The file name, as it appears in `Migrations/`.
    public let fileName: String
    /// The SQL script, exactly as in the file.
    public let sql: String
    /// SHA-256 of the script with line endings normalised to LF, as 64 hex digits.
    ///
    /// Normalising means a checkout that converted the file to CRLF is not reported as modified.
    public let checksum: String
    /// False when the file opts out of running inside a transaction with the line
    /// `-- stockroom:no-transaction` (for statements such as `VACUUM` that refuse a transaction).
    public let runsInTransaction: Bool

    /// The marker line that makes a migration run outside a transaction.
    public static let noTransactionDirective = MigrationScript.noTransactionDirective

    /// Parses a migration from its file name and content, computing its checksum and
    /// transaction flag from the text.
    ///
    /// - Throws: ``MigrationError/invalidFileName(_:)`` unless the name is `NNNN_words.sql`.
    public init(fileName: String, sql: String) throws {
        try self.init(fileName: fileName, sql: sql, checksum: MigrationScript.checksum(of: sql),
                      runsInTransaction: MigrationScript.runsInTransaction(sql))
    }

    /// A migration whose checksum and transaction flag were computed already, by the
    /// EmbedMigrations build tool with the same ``MigrationScript`` functions, so that
    /// start-up does no hashing for the embedded files.
    init(fileName: String, sql: String, checksum: String, runsInTransaction: Bool) throws {
        guard fileName.hasSuffix(".sql"),
              let underscore = fileName.firstIndex(of: "_"),
              let version = Int(fileName[..<underscore]), version > 0 else {
            throw MigrationError.invalidFileName(fileName)
        }
        let name = fileName[fileName.index(after: underscore)...].dropLast(4)
        guard !name.isEmpty else { throw MigrationError.invalidFileName(fileName) }
        self.version = version
        self.name = String(name)
        self.fileName = fileName
        self.sql = sql
        self.checksum = checksum
        self.runsInTransaction = runsInTransaction
    }

    /// The checksum Stockroom records for a migration script: SHA-256 of its UTF-8 bytes with
    /// CRLF and lone CR line endings turned into LF (see ``MigrationScript/checksum(of:)``).
    public static func checksum(of sql: String) -> String {
        MigrationScript.checksum(of: sql)
    }
}
