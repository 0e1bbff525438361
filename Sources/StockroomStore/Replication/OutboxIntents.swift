import FoundationEssentials
import Inventory

/// An intent as it waits in a replica's outbox (`sync_intents`, migration 0013), in the
/// replica's order.
package struct OutboxIntent: Hashable, Sendable {
    /// Its place in the replica's order.
    package let sequence: Int
    /// The intent. A delete's `lastPulledVersion` is a placeholder: the replica knows the hub's
    /// position it had pulled, not the hub's version of the item, which the hub reads from it
    /// (``lastPulledPosition``).
    package let intent: Intent
    /// A delete's hub history position that the replica had pulled when it deleted the item.
    package let lastPulledPosition: Int?
}

/// Intents read from the outbox for one push: their rows as read (which a served hub decodes
/// with the same code, ``OutboxIntents/decode(rows:origin:)``) and the intents.
struct OutboxBatch {
    var rows: [[String?]]
    var intents: [OutboxIntent]
}

/// The outbox of one replica: read in order, emptied of what the hub applied, and written by
/// the resolutions (the triggers of migration 0013 write every other intent).
struct OutboxIntents<Connection: StoreConnection> {
    let connection: Connection



    /// The columns an outbox row is read by: its facts, then the copy and the item after, each
    /// led by the item's id so that ``ItemCodec`` reads it as an item.
    private static var selectSQL: String {
        let table = SyncIntentsTable.self
        return """
            SELECT \(table.key), \(table.factColumns.filter { $0 != "item_id" }.joined(separator: ", ")),
                   item_id, \(table.copyColumns.joined(separator: ", ")), item_id, \(table.afterColumns.joined(separator: ", "))
            FROM \(table.name) WHERE \(table.key) > ? ORDER BY \(table.key) LIMIT ?
            """
    }

    /// Up to `limit` intents after `sequence`, in order, under the replica's `origin`.
    func intents(after sequence: Int, limit: Int, origin: UUID) throws -> [OutboxIntent] {
        try connection.withStatement(Self.selectSQL) { statement in
            try statement.bind(sequence, at: 0)
            try statement.bind(limit, at: 1)
            var intents: [OutboxIntent] = []
            while try statement.step() {
                intents.append(try Self.decode(statement, origin: origin))
            }
            return intents
        }
    }

    /// Up to `limit` intents after `sequence`, in order, with the rows they were read from:
    /// what a push sends (the rows, to a served hub) and remembers (the intents).
    func batch(after sequence: Int, limit: Int, origin: UUID) throws -> OutboxBatch {
        try connection.withStatement(Self.selectSQL) { statement in
            try statement.bind(sequence, at: 0)
            try statement.bind(limit, at: 1)
            var batch = OutboxBatch(rows: [], intents: [])
            while try statement.step() {
                let row = WireRow(values: (0..<statement.columnCount).map { statement.optionalText(at: $0) })
                batch.rows.append(row.values)
                batch.intents.append(try Self.decode(row, origin: origin))
            }
            return batch
        }
    }

    /// Decodes a batch's rows as a served hub receives them, every intent under `origin`: the
    /// replica the batch came from, so that no row can name another.
    static func decode(rows: [[String?]], origin: UUID) throws -> [OutboxIntent] {
        try rows.map { try decode(WireRow(values: $0), origin: origin) }
    }

    /// The columns of a row of ``batch(after:limit:origin:)``, by name, for the protocol.
    static var rowColumns: [String] {
        let table = SyncIntentsTable.self
        return [table.key] + table.factColumns.filter { $0 != "item_id" } + ["item_id"] + table.copyColumns + ["item_id"] + table.afterColumns
    }

    /// Every intent still waiting, in order.
    func all(origin: UUID) throws -> [OutboxIntent] {
        try intents(after: 0, limit: Int(Int32.max), origin: origin)
    }

    /// The last intent's place in the order, 0 when none waits.
    func lastSequence() throws -> Int {
        try connection.withStatement(SyncIntentsTable.lastSequence) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// Deletes the intents up to `sequence`: the hub committed them.
    func removeThrough(_ sequence: Int) throws {
        try connection.withStatement(SyncIntentsTable.deleteThrough) { statement in
            try statement.bind(sequence, at: 0)
            try statement.run()
        }
    }

    /// Queues an intent the replica's own code makes, not its triggers: a person's resolution
    /// of a conflict (``ConflictResolution``), under the intent's own id and time, so that what
    /// the replica wrote at once and what the hub will write agree (an item brought back takes
    /// the intent's id).
    func queue(_ intent: Intent) throws {
        guard case .resolve(let conflictID, let choice) = intent.change else {
            preconditionFailure("only resolutions are queued by code; the triggers queue the rest")
        }
        let fieldCount = SyncIntentsTable.copyColumns.count
        let columns = ["id", "item_id", "made_at", "kind", "conflict_id", "choice"]
            + SyncIntentsTable.copyColumns + SyncIntentsTable.afterColumns
        let sql = "INSERT INTO \(SyncIntentsTable.name) (\(columns.joined(separator: ", "))) VALUES (\((1...columns.count).map { "?\($0)" }.joined(separator: ", ")))"
        try connection.withStatement(sql) { statement in
            try statement.bind(intent.id, at: 0)
            try statement.bind(intent.itemID, at: 1)
            try statement.bind(intent.madeAt, at: 2)
            try statement.bindStatic("resolve", at: 3)
            try statement.bind(conflictID, at: 4)
            let chosen: Item?
            switch choice {
            case .keepHub: try statement.bindStatic("keep_hub", at: 5); chosen = nil
            case .delete: try statement.bindStatic("delete", at: 5); chosen = nil
            case .item(let item): try statement.bindStatic("item", at: 5); chosen = item
            }
            var row = RowBinder(statement, at: 6)
            for side in [intent.replicaCopy, chosen] {
                if let side { try ItemCodec.bindFields(side, to: &row) } else { try row.bindNulls(fieldCount) }
            }
            try statement.run()
        }
    }

    private static func decode<Source: ColumnSource>(_ statement: Source, origin: UUID) throws -> OutboxIntent {
        func undecodable(_ reason: String) -> StoreError {
            StoreError.undecodableRow(table: SyncIntentsTable.name, id: statement.text(at: 1), reason: reason)
        }
        guard let id = statement.uuid(at: 1) else { throw undecodable("id is not a UUID") }
        let sequence = statement.int(at: 0)
        let madeAt = statement.text(at: 2)
        let kind = statement.text(at: 3)
        let fieldCount = SyncIntentsTable.copyColumns.count
        let copyStart = 8, afterStart = 8 + 1 + fieldCount
        func item(at start: Int) throws -> Item? {
            if statement.isNull(at: start + 1) { return nil }
            var row = RowReader(statement, at: start)
            do { return try ItemCodec.decode(from: &row) } catch { throw undecodable(error.reason) }
        }
        let copy = try item(at: copyStart), after = try item(at: afterStart)
        guard let itemID = statement.uuid(at: copyStart) else { throw undecodable("item_id is not a UUID") }
        let change: IntentChange
        var lastPulledPosition: Int?
        switch kind {
        case "add":
            guard let after else { throw undecodable("an add without the item") }
            change = .add(after)
        case "set":
            guard let copy, let after else { throw undecodable("a set without both sides") }
            guard let changes = ItemChanges(from: copy, to: after) else { throw undecodable("a set that changes nothing") }
            change = .set(changes)
        case "adjust":
            guard let units = statement.optionalInt(at: 4) else { throw undecodable("an adjust without adjust_by") }
            change = .adjust(by: units)
        case "delete":
            lastPulledPosition = statement.optionalInt(at: 5) ?? 0
            change = .delete(lastPulledVersion: 0)
        case "resolve":
            guard let conflict = statement.uuid(at: 6) else { throw undecodable("a resolve without conflict_id") }
            let choice: ConflictChoice
            switch statement.optionalText(at: 7) {
            case "keep_hub": choice = .keepHub
            case "delete": choice = .delete
            case "item":
                guard let after else { throw undecodable("a resolve choosing an item without it") }
                choice = .item(after)
            default: throw undecodable("choice \(statement.describeColumn(at: 7)) is not keep_hub, item or delete")
            }
            change = .resolve(conflictID: conflict, choice: choice)
        default:
            throw undecodable("kind \(statement.describeColumn(at: 3)) is not an intent")
        }
        let intent = Intent(id: id, itemID: itemID, origin: origin, madeAt: madeAt, replicaCopy: copy, change: change)
        return OutboxIntent(sequence: sequence, intent: intent, lastPulledPosition: lastPulledPosition)
    }
}

/// SQL the replication tables are written with where the database makes the value, as the
/// capture triggers of migration 0013 do.
enum ReplicationSQL {
    /// A random (version 4) UUID's lowercase text, made anew for each row: each part calls
    /// `randomblob` itself, since SQLite evaluates a subquery that reads no column of the row
    /// once per statement (an `INSERT … SELECT` would give every row the same id).
    static let newID = "(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))"
    /// The current time as ISO-8601 UTC with milliseconds.
    static let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
}
