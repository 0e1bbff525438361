import FoundationEssentials
import Glibc

/// Resolves what a user typed (a full id or a unique prefix, any letter case) to one id.
enum IDPrefix {
    /// The shortest prefix accepted.
    static let minimumLength = 4

    /// Finds the single id in `column` of `table` that starts with `text`.
    ///
    /// - Throws: ``StoreError/malformedID(_:_:)``, ``StoreError/notFound(_:_:)`` or
    ///   ``StoreError/ambiguousID(_:_:matches:)``.
    static func resolve<Connection: StoreConnection>(_ text: String, in table: String, column: String = "id",
                                                     record: StoreError.Record, connection: Connection) throws -> UUID {
        let prefix = text.lowercased()
        let isHexOrHyphen = prefix.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || byte == UInt8(ascii: "-")
        }
        guard prefix.utf8.count >= minimumLength, prefix.utf8.count <= 36, isHexOrHyphen else {
            throw StoreError.malformedID(record, text)
        }
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
