import Foundation

/// Resolves what a user typed (a full id or a unique prefix, any letter case) to one id.
public enum IDPrefix {
    /// The shortest prefix accepted.
    public static let minimumLength = 4

    /// Checks that `text` can be an id or an id prefix at all, without a database: commands
    /// call this while parsing their arguments, so a malformed id is refused before the file
    /// is opened (opening for writing may switch a rollback-journal file to WAL).
    ///
    /// - Returns: the prefix in lowercase, as ids are stored.
    /// - Throws: ``StoreError/malformedID(_:_:)``.
    @discardableResult
    public static func wellFormed(_ text: String, record: StoreError.Record) throws -> String {
        let prefix = text.lowercased()
        let isHexOrHyphen = prefix.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || byte == UInt8(ascii: "-")
        }
        guard prefix.utf8.count >= minimumLength, prefix.utf8.count <= 36, isHexOrHyphen else {
            throw StoreError.malformedID(record, text)
        }
        return prefix
    }

    /// Finds the single id in `column` of `table` that starts with `text`.
    ///
    /// - Throws: ``StoreError/malformedID(_:_:)``, ``StoreError/notFound(_:_:)`` or
    ///   ``StoreError/ambiguousID(_:_:matches:)``.
    static func resolve<Connection: StoreConnection>(_ text: String, in table: String, column: String = "id",
                                                     record: StoreError.Record, connection: Connection) throws -> UUID {
        let prefix = try wellFormed(text, record: record)
        // A range scan on the primary key: '~' sorts after every character an id can hold.
        let matches = try connection.withStatement(
            "SELECT DISTINCT \(column) FROM \(table) WHERE \(column) >= ?1 AND \(column) < ?1 || '~' ORDER BY \(column) LIMIT 3"
        ) { statement in
            try statement.bind(prefix, at: 0)
            var found: [String] = []
            while try statement.step() { found.append(statement.text(at: 0)) }
            return found
        }
        switch matches.count {
        case 0: throw StoreError.notFound(record, text)
        case 1:
            guard let id = UUID(uuidString: matches[0]) else {
                throw StoreError.undecodableRow(table: table, id: matches[0], reason: "id is not a UUID")
            }
            return id
        default: throw StoreError.ambiguousID(record, text, matches: matches.prefix(2).map { $0 })
        }
    }
}
