/// What Stockroom derives from a migration script's text: its checksum and whether it runs
/// inside a transaction.
///
/// One implementation for both places that need it: the EmbedMigrations build tool computes
/// these for `Migrations/*.sql` at build time and embeds them as literals, so a command starts
/// without hashing anything; `StockroomMigrations` computes them at run time for scripts read
/// from a folder (`--migrations-dir`). A test compares the two.
public enum MigrationScript {
    /// The marker line that makes a migration run outside a transaction.
    public static let noTransactionDirective = "-- stockroom:no-transaction"

    /// The checksum Stockroom records for a migration script: SHA-256 of its UTF-8 bytes with
    /// CRLF and lone CR line endings turned into LF, as 64 lowercase hexadecimal digits.
    ///
    /// Normalising means a checkout that converted the file to CRLF is not reported as modified.
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

    /// False when the script opts out of a transaction with the line ``noTransactionDirective``.
    public static func runsInTransaction(_ sql: String) -> Bool {
        !hasLine(noTransactionDirective, in: sql)
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
