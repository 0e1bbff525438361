import Foundation

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
    public static let noTransactionDirective = "-- stockroom:no-transaction"

    /// Parses a migration from its file name and content.
    ///
    /// - Throws: ``MigrationError/invalidFileName(_:)`` unless the name is `NNNN_words.sql`.
    public init(fileName: String, sql: String) throws {
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
        self.checksum = Migration.checksum(of: sql)
        self.runsInTransaction = !Migration.hasLine(Migration.noTransactionDirective, in: sql)
    }

    /// The checksum Stockroom records for a migration script: SHA-256 of its UTF-8 bytes with
    /// CRLF and lone CR line endings turned into LF.
    ///
    /// Works on bytes, because every command validates the embedded migrations at start-up and
    /// Foundation's string replacement would cost more than the command's own query.
    public static func checksum(of sql: String) -> String {
        var normalised: [UInt8] = []
        normalised.reserveCapacity(sql.utf8.count)
        var previousWasCR = false
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "\r") {
                normalised.append(UInt8(ascii: "\n"))
                previousWasCR = true
                continue
            }
            if !(byte == UInt8(ascii: "\n") && previousWasCR) { normalised.append(byte) }
            previousWasCR = false
        }
        return SHA256.hexDigest(of: normalised)
    }

    /// True when `line`, trimmed of surrounding spaces, tabs and CR, is a line of `text`.
    static func hasLine(_ line: String, in text: String) -> Bool {
        let wanted = Array(line.utf8)
        return text.utf8.split(separator: UInt8(ascii: "\n")).contains { candidate in
            let trimmed = candidate.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 || $0 == 13 }
            return trimmed.reversed().elementsEqual(wanted)
        }
    }
}
