import CSQLite

/// A row whose foreign key names a parent row that does not exist (`PRAGMA foreign_key_check`).
public struct ForeignKeyViolation: Sendable, Equatable, CustomStringConvertible {
    /// The table holding the orphan row.
    public let table: String
    /// The orphan row's rowid; nil for a WITHOUT ROWID table.
    public let rowID: Int?
    /// The table the key should point into.
    public let parent: String

    /// Creates a violation.
    public init(table: String, rowID: Int?, parent: String) {
        self.table = table
        self.rowID = rowID
        self.parent = parent
    }

    /// One line naming the row and the missing parent.
    public var description: String {
        "row \(rowID.map(String.init) ?? "?") of table \(table) refers to a missing row of table \(parent)"
    }
}

extension Database {
    /// What `PRAGMA integrity_check` finds wrong with the file, at most `limit` messages;
    /// empty when the file is sound.
    ///
    /// - Throws: ``SQLiteError``; a damaged file may fail with `SQLITE_CORRUPT` or
    ///   `SQLITE_NOTADB` instead of producing messages.
    public func integrityProblems(limit: Int = 100) throws -> [String] {
        let statement = try prepare("PRAGMA integrity_check(\(max(1, limit)))")
        var messages: [String] = []
        while try statement.step() {
            // One result row can hold several problems on separate lines, the first preceded by
            // a "*** in database main ***" heading; each problem becomes one message.
            messages += statement.text(at: 0).split(whereSeparator: \.isNewline).map(String.init)
                .filter { !$0.hasPrefix("*** in database ") }
        }
        return messages == ["ok"] ? [] : messages
    }

    /// Every row whose foreign key points at no parent row, in the order SQLite reports them.
    public func foreignKeyViolations() throws -> [ForeignKeyViolation] {
        try withStatement("PRAGMA foreign_key_check") { statement in
            var violations: [ForeignKeyViolation] = []
            while try statement.step() {
                violations.append(ForeignKeyViolation(
                    table: statement.text(at: 0), rowID: statement.optionalInt(at: 1), parent: statement.text(at: 2)))
            }
            return violations
        }
    }

    /// True when the database has a table called `name`.
    public func tableExists(_ name: String) throws -> Bool {
        try withStatement("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?") { statement in
            try statement.bind(name, at: 0)
            return try statement.step()
        }
    }
}

extension SQLiteError {
    /// The file is damaged or is not a database at all (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
}
