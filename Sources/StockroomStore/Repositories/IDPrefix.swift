import FoundationEssentials
import Glibc
import Inventory

/// Resolves what a user typed (a full id, a unique prefix, or the short form lines print,
/// `0193…2e4f5a6b`; any letter case) to one id.
public enum IDPrefix {
    /// The shortest prefix accepted, and the shortest end of the short form.
    public static let minimumLength = 4

    /// What a typed id names: the ids starting with `prefix` and, for the short form, ending
    /// with `suffix`.
    struct Pattern: Equatable {
        /// Lowercase; empty when the short form gives only the end.
        let prefix: String
        /// Lowercase; nil for a plain prefix.
        let suffix: String?
    }

    /// The separators the short form may be typed with: what `Presentation.shortID(_:)`
    /// prints, and three dots for a keyboard without "…".
    static let shortFormSeparators = [Presentation.shortIDSeparator, "..."]

    /// Checks that `text` can be an id or an id prefix at all, without a database: commands
    /// call this while parsing their arguments, so a malformed id is refused before the file
    /// is opened (opening for writing may switch a rollback-journal file to WAL).
    ///
    /// - Returns: the text in lowercase, as ids are stored.
    /// - Throws: ``StoreError/malformedID(_:_:)``.
    @discardableResult
    public static func wellFormed(_ text: String, record: StoreError.Record) throws -> String {
        _ = try pattern(text, record: record)
        return text.lowercased()
    }

    /// `text` as a prefix, or as the short form's two ends.
    static func pattern(_ text: String, record: StoreError.Record) throws -> Pattern {
        let lowercased = text.lowercased()
        func isIDText(_ part: Substring) -> Bool {
            part.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || byte == UInt8(ascii: "-")
            }
        }
        for separator in shortFormSeparators {
            guard let range = lowercased.firstRange(of: separator) else { continue }
            let prefix = lowercased[..<range.lowerBound], suffix = lowercased[range.upperBound...]
            guard isIDText(prefix), isIDText(suffix), suffix.utf8.count >= minimumLength,
                  prefix.utf8.count + suffix.utf8.count < 36 else {
                throw StoreError.malformedID(record, text)
            }
            return Pattern(prefix: String(prefix), suffix: String(suffix))
        }
        guard lowercased.utf8.count >= minimumLength, lowercased.utf8.count <= 36, isIDText(lowercased[...]) else {
            throw StoreError.malformedID(record, text)
        }
        return Pattern(prefix: lowercased, suffix: nil)
    }

    /// Finds the single id in `column` of `table` that `text` names.
    ///
    /// - Throws: ``StoreError/malformedID(_:_:)``, ``StoreError/notFound(_:_:)`` or
    ///   ``StoreError/ambiguousID(_:_:matches:)``.
    static func resolve<Connection: StoreConnection>(_ text: String, in table: String, column: String = "id",
                                                     record: StoreError.Record, connection: Connection) throws -> UUID {
        let pattern = try pattern(text, record: record)
        // A range scan on the primary key: '~' sorts after every character an id can hold. The
        // short form's end is a filter on that range: its first 4 digits bound it to ids made
        // within the same 50 days or so, and ids hold no '%' or '_' to escape.
        let suffixTest = pattern.suffix == nil ? "" : " AND \(column) LIKE ?2"
        let matches = try connection.withStatement(
            "SELECT DISTINCT \(column) FROM \(table) WHERE \(column) >= ?1 AND \(column) < ?1 || '~'\(suffixTest) ORDER BY \(column) LIMIT 3"
        ) { statement in
            try statement.bind(pattern.prefix, at: 0)
            if let suffix = pattern.suffix { try statement.bind("%" + suffix, at: 1) }
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
