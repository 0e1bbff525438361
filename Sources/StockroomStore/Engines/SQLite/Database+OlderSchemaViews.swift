import SQLiteCore
import Inventory

extension Database {
    /// Lets this binary read a file whose schema is older than `InventoryStore.Contents.historyColumnsVersion`
    /// without migrating it (a read never migrates): temporary views named like the tables add
    /// the columns of every item field added since the file's version (``ItemField/addedIn``)
    /// as NULL (0008's location: no location, no location change), to `drafts` the conflict's
    /// columns of 0012 (no conflict: every older draft is `adding` or `duplicating`), and the
    /// history's details (0011's ``EventDetailsCodec``: no adjustment, no origin). SQLite resolves an
    /// unqualified name in `temp` first, so every query reads through them; they live in the
    /// connection's temporary schema, never in the file, which stays byte-identical. `rowid`
    /// is passed through for the search plans that read items by it. Does nothing on a current
    /// schema.
    ///
    /// `query_only` refuses even a temporary view, so it is lifted around their creation only.
    func readOlderColumns(schemaVersion version: Int) throws {
        guard version < max(InventoryStore.Contents.draftColumnsVersion, InventoryStore.Contents.historyColumnsVersion) else { return }
        let wasQueryOnly = try withStatement("PRAGMA query_only") { statement in try statement.step() && statement.int(at: 0) == 1 }
        if wasQueryOnly { try execute("PRAGMA query_only = OFF") }
        defer { if wasQueryOnly { try? execute("PRAGMA query_only = ON") } }
        // The fields whose columns this file lacks, each stood in for by NULL: no value, and no
        // change of it in the history.
        let newer = ItemField.allCases.filter { $0.addedIn > version }
        func nulls(_ columns: [String]) -> String { columns.map { ", NULL AS \($0)" }.joined() }
        let itemColumns = nulls(newer.flatMap(ItemCodec.columns(of:)))
        // Items only when they lack a column: a view over a table that has them all would only
        // cost its reads.
        if !newer.isEmpty {
            try execute("CREATE TEMP VIEW IF NOT EXISTS \(ItemsTable.name) AS SELECT rowid AS rowid, *\(itemColumns) FROM main.\(ItemsTable.name)")
        }
        if version >= 2 {
            let conflictColumns = version < DraftsTable.conflictsAddedIn ? nulls(OpenConflictCodec.columns) : ""
            try execute("CREATE TEMP VIEW IF NOT EXISTS \(DraftsTable.name) AS SELECT *\(itemColumns)\(conflictColumns) FROM main.\(DraftsTable.name)")
        }
        if version >= 3 {
            let details = version < EventDetailsCodec.addedIn ? EventDetailsCodec.columns : []
            let eventColumns = nulls(newer.flatMap(ItemEventCodec.payloadColumns(of:)) + details)
            try execute("CREATE TEMP VIEW IF NOT EXISTS \(ItemEventsTable.name) AS SELECT *\(eventColumns) FROM main.\(ItemEventsTable.name)")
        }
    }
}
