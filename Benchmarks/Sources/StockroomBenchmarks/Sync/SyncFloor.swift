import Foundation
import GRDBSQLite
import Inventory
import RawLibPQ

/// W14's floor: the rows a push leaves on the hub (or a pull on a replica), written straight
/// into the database in one transaction, the fastest way each engine takes them. Run as a
/// process of its own (`StockroomBenchmarks --w14-floor ENGINE TARGET PLAN`) so that callgrind
/// can count it as it counts `stockroom sync`; it prints the seconds of its transaction alone
/// (no start-up, no reading of the plan), the figure the harness compares with.
///
/// On a hub each write carries the intent's origin and id into its history event through
/// `item_event_context` (migration 0011), as Stockroom's push does, and every intent is
/// remembered in `sync_applied`. On a replica (`replica`) the rows are written with capture
/// off, as a pull writes them.
enum SyncFloor {
    static func main(_ arguments: [String]) -> Never {
        do {
            guard arguments.count == 3 else { throw BenchmarkError(message: "usage: --w14-floor sqlite|replica|postgres TARGET PLAN") }
            let writes = try SyncChanges.writes(fromPlan: String(contentsOfFile: arguments[2], encoding: .utf8))
            let seconds: Double
            switch arguments[0] {
            case "sqlite", "replica":
                let raw = RawImplementation()
                try raw.open(path: arguments[1])
                seconds = try Harness.time { try raw.applySyncFloor(writes, replica: arguments[0] == "replica") }
                raw.close()
            case "postgres":
                let raw = RawPostgresImplementation()
                try raw.open(path: arguments[1])
                seconds = try Harness.time { try raw.applySyncFloor(writes) }
                raw.close()
            default:
                throw BenchmarkError(message: "unknown floor engine \(arguments[0])")
            }
            print("seconds \(seconds)")
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}

extension RawImplementation {
    /// The floor on SQLite: statements prepared once, one row each, in one transaction.
    @inline(never)
    func applySyncFloor(_ writes: [SyncChanges.Write], replica: Bool) throws {
        let now = isoNow()
        try exec("BEGIN IMMEDIATE")
        if replica { try exec("UPDATE sync_replica SET capturing = 0") }
        let withContext = try !replica && hasTable("item_event_context")
        let update = try prepared("""
            UPDATE items SET name = ?2, color = ?3, status = ?4, quantity = ?5, is_on_back_order = ?6, location = ?7,
                             updated_at = ?8 WHERE id = ?1
            """)
        let insert = try prepared(SharedSQL.insertItem)
        let context = withContext ? try prepared("INSERT INTO item_event_context (item_id, adjusted_by, origin, intent_id) VALUES (?1, ?2, ?3, ?4)") : nil
        let clear = withContext ? try prepared("DELETE FROM item_event_context WHERE item_id = ?1") : nil
        let applied = replica ? nil : try prepared("INSERT INTO sync_applied (intent_id, origin, applied_at) VALUES (?1, ?2, ?3)")
        try now.withCString { nowText in
            for (index, write) in writes.enumerated() {
                let intentID = SyncChanges.floorIntentID(index)
                if let context {
                    try bindID(write.item.id, to: context, at: 1)
                    if let units = write.adjustedBy { sqlite3_bind_int64(context, 2, Int64(units)) } else { sqlite3_bind_null(context, 2) }
                    try bindID(SyncChanges.floorOrigin, to: context, at: 3)
                    try bindID(intentID, to: context, at: 4)
                    try step(context)
                }
                let statement = write.inserted ? insert : update
                try bindItem(write.item, to: statement, at: 1)
                sqlite3_bind_text(statement, 8, nowText, -1, nil)
                try step(statement)
                if let clear {
                    try bindID(write.item.id, to: clear, at: 1)
                    try step(clear)
                }
                if let applied {
                    try bindID(intentID, to: applied, at: 1)
                    try bindID(SyncChanges.floorOrigin, to: applied, at: 2)
                    sqlite3_bind_text(applied, 3, nowText, -1, nil)
                    try step(applied)
                }
            }
        }
        if replica { try exec("UPDATE sync_replica SET capturing = 1") }
        try exec("COMMIT")
    }

    @inline(__always)
    private func step(_ statement: OpaquePointer) throws {
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure() }
        sqlite3_reset(statement)
    }

    private func hasTable(_ name: String) throws -> Bool {
        let statement = try prepared("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1")
        defer { sqlite3_reset(statement) }
        sqlite3_bind_text(statement, 1, name, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        return sqlite3_step(statement) == SQLITE_ROW
    }
}

extension RawPostgresImplementation {
    /// The floor on PostgreSQL: every row through `COPY ... FROM STDIN`, the updates into a
    /// temporary table and then one `UPDATE ... FROM` per round (an item changed twice is
    /// written in two rounds, so that each change is its own history event).
    @inline(never)
    func applySyncFloor(_ writes: [SyncChanges.Write]) throws {
        let now = isoNow()
        try check(PQexec(connection, "BEGIN"), PGRES_COMMAND_OK)
        let hasContext = try single("SELECT to_regclass('item_event_context') IS NOT NULL") == "t"
        try check(PQexec(connection, """
            CREATE TEMP TABLE floor_updates (id text COLLATE "C" PRIMARY KEY, name text COLLATE "C", color text COLLATE "C",
                status text COLLATE "C", quantity bigint, is_on_back_order smallint, location text COLLATE "C") ON COMMIT DROP
            """), PGRES_COMMAND_OK)
        var rounds: [[(index: Int, write: SyncChanges.Write)]] = []
        var seen: [UUID: Int] = [:]
        for (index, write) in writes.enumerated() {
            let round = seen[write.item.id, default: 0]
            seen[write.item.id] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append((index, write))
        }
        let origin = SyncChanges.floorOrigin.uuidString.lowercased()
        for round in rounds {
            if hasContext {
                try copy("COPY item_event_context (item_id, adjusted_by, origin, intent_id) FROM STDIN", round.map { index, write in
                    "\(write.item.id.uuidString.lowercased())\t\(write.adjustedBy.map(String.init) ?? "\\N")\t\(origin)\t\(SyncChanges.floorIntentID(index).uuidString.lowercased())\n"
                })
            }
            let updates = round.filter { !$0.write.inserted }, inserts = round.filter { $0.write.inserted }
            if !updates.isEmpty {
                try copy("COPY floor_updates FROM STDIN", updates.map { Self.copyLine($0.write.item, times: nil) })
                try check(PQexec(connection, """
                    UPDATE items SET name = u.name, color = u.color, status = u.status, quantity = u.quantity,
                        is_on_back_order = u.is_on_back_order, location = u.location, updated_at = '\(now)'
                    FROM floor_updates u WHERE items.id = u.id
                    """), PGRES_COMMAND_OK)
                try check(PQexec(connection, "TRUNCATE floor_updates"), PGRES_COMMAND_OK)
            }
            if !inserts.isEmpty {
                try copy("COPY items (id, name, color, status, quantity, is_on_back_order, location, created_at, updated_at) FROM STDIN",
                         inserts.map { Self.copyLine($0.write.item, times: now) })
            }
            if hasContext { try check(PQexec(connection, "DELETE FROM item_event_context"), PGRES_COMMAND_OK) }
        }
        try copy("COPY sync_applied (intent_id, origin, applied_at) FROM STDIN", writes.indices.map { index in
            "\(SyncChanges.floorIntentID(index).uuidString.lowercased())\t\(origin)\t\(now)\n"
        })
        try check(PQexec(connection, "COMMIT"), PGRES_COMMAND_OK)
    }

    /// An item as a line of COPY text (the dataset's names hold no tab, newline or backslash).
    private static func copyLine(_ item: Item, times: String?) -> String {
        let color = item.color.map { RawImplementation.colorText($0).description } ?? "\\N"
        let status: String
        switch item.status {
        case .inStock(let quantity): status = "in_stock\t\(quantity)\t\\N"
        case .outOfStock(let isOnBackOrder): status = "out_of_stock\t\\N\t\(isOnBackOrder ? 1 : 0)"
        }
        let end = times.map { "\t\($0)\t\($0)" } ?? ""
        return "\(item.id.uuidString.lowercased())\t\(item.name)\t\(color)\t\(status)\t\(item.location?.text ?? "\\N")\(end)\n"
    }

    private func copy(_ sql: String, _ lines: [String]) throws {
        try check(PQexec(connection, sql), PGRES_COPY_IN)
        var text = lines.joined()
        try putCopyData(&text)
        guard PQputCopyEnd(connection, nil) == 1 else { throw failure() }
        try check(PQgetResult(connection), PGRES_COMMAND_OK)
        while let rest = PQgetResult(connection) { PQclear(rest) }
    }

    func single(_ sql: String) throws -> String {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) == 1 else { throw failure() }
        return String(cString: PQgetvalue(result, 0, 0))
    }
}
